package install

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults/catalogue"
)

// crdFaultIDs are the faults the catalogue places in crdFaults.
func crdFaultIDs(t *testing.T) []string {
	t.Helper()
	docs, err := catalogue.Load()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range catalogue.All(docs) {
		if f.File == "platform/install/crd_faults.go" {
			ids = append(ids, f.ID)
		}
	}
	if len(ids) == 0 {
		t.Fatal("the catalogue places no fault in crdFaults")
	}
	return ids
}

func loadCRDs(t *testing.T) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crds, err := installedCRDs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return crds
}

// structuralSchemas are the schemas of crd's versions as the API server
// reads them, each checked structural, which it requires of a v1 CRD.
func structuralSchemas(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition) []*schema.Structural {
	t.Helper()
	var out []*schema.Structural
	for _, v := range crd.Spec.Versions {
		var internal apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
			t.Fatal(err)
		}
		s, err := schema.NewStructural(&internal)
		if err != nil {
			t.Fatalf("CRD %s %s: %v", crd.Name, v.Name, err)
		}
		if errs := schema.ValidateStructural(field.NewPath("openAPIV3Schema"), s); len(errs) > 0 {
			t.Fatalf("CRD %s %s is not structural: %v", crd.Name, v.Name, errs.ToAggregate())
		}
		out = append(out, s)
	}
	return out
}

// Each CRD fault alters one CRD, which stays structural; no fault, or
// another one, alters nothing. (Whether the API server takes the altered
// CRD, CEL cost estimates included, needs k8s.io/apiextensions-apiserver's
// CRD validation, outside this module's dependencies: checked apart.)
func TestCRDFaultsAlterOneCRD(t *testing.T) {
	for _, fault := range append(crdFaultIDs(t), "", "hsts.reencrypt-header-dropped") {
		t.Run(fault, func(t *testing.T) {
			crds, altered := loadCRDs(t), loadCRDs(t)
			if err := crdFaults(altered, fault); err != nil {
				t.Fatal(err)
			}
			changed := 0
			for i := range crds {
				if !reflect.DeepEqual(crds[i], altered[i]) {
					changed++
					structuralSchemas(t, altered[i])
				}
			}
			if want := map[bool]int{true: 1, false: 0}[strings.Contains(fault, ".crd-")]; changed != want {
				t.Errorf("%d CRDs altered, want %d", changed, want)
			}
		})
	}
}

// apiVerdict is what the API server makes of obj under crd's first
// version, its CEL rules left out: obj pruned as it would be stored, and
// its refusals (the OpenAPI schema, list-type map and set), "" for none.
func apiVerdict(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, obj map[string]any) (map[string]any, string) {
	t.Helper()
	s := structuralSchemas(t, crd)[0]
	pruning.Prune(obj, s, true)
	var refusals []string
	for _, e := range validate.NewSchemaValidator(s.ToKubeOpenAPI(), nil, "", strfmt.Default).Validate(obj).Errors {
		refusals = append(refusals, e.Error())
	}
	for _, e := range listtype.ValidateListSetsAndMaps(nil, s, obj) {
		refusals = append(refusals, e.Error())
	}
	return obj, strings.Join(refusals, "; ")
}

type crdFaultCase struct {
	fault string
	crd   string
	obj   string // the object, JSON
	// refused: the spec's refusal, made by the unaltered CRD and not
	// under the fault (the object admitted); nil for a refusal the fault
	// adds (refusedUnder) or a field it prunes (pruned). A CEL rule's
	// refusal is not judged here (k8s.io/apiextensions-apiserver's CEL
	// validator is outside this module's dependencies: checked apart).
	refused      *contract.Refusal
	refusedUnder bool
	pruned       []string // path to the field the fault prunes
	// defaulted is the schema path (schemaEditor's) of the field the
	// unaltered CRD defaults and the fault leaves unset.
	defaulted string
}

func ingressConfig(spec string) string {
	return `{"apiVersion":"config.openshift.io/v1","kind":"Ingress","metadata":{"name":"cluster"},"spec":` + spec + `}`
}

func hstsPolicy(policy string) string {
	return ingressConfig(`{"domain":"apps.example.test","requiredHSTSPolicies":[` + policy + `]}`)
}

func ingressController(spec string) string {
	return `{"apiVersion":"operator.openshift.io/v1","kind":"IngressController","metadata":{"name":"default","namespace":"openshift-ingress-operator"},"spec":` + spec + `}`
}

func requestActions(actions ...string) string {
	return ingressController(`{"httpHeaders":{"actions":{"request":[` + strings.Join(actions, ",") + `]}}}`)
}

func setAction(name, value string) string {
	v, _ := json.Marshal(value)
	return fmt.Sprintf(`{"name":%q,"action":{"type":"Set","set":{"value":%s}}}`, name, v)
}

func clientTLS(c string) string { return ingressController(`{"clientTLS":` + c + `}`) }

func refusal(r contract.Refusal) *contract.Refusal { return &r }

// The objects the specs of each fault's statements write, and what the
// fault does to the API server's verdict on them.
func crdFaultCases() []crdFaultCase {
	const cfg, ic = ingressConfigCRDName, ingressControllerCRDName
	const p = "spec.requiredHSTSPolicies[0]."
	statusEntry := func(users ...string) string {
		u, _ := json.Marshal(users)
		return ingressConfig(`{"domain":"apps.example.test"},"status":{"componentRoutes":[{"namespace":"ns","name":"console","defaultHostname":"console.apps.example.test",` +
			`"relatedObjects":[{"group":"route.openshift.io","resource":"routes","namespace":"ns","name":"console"}],"consumingUsers":` + string(u) + `}]}`)
	}
	specEntries := func(entries ...string) string {
		return ingressConfig(`{"domain":"apps.example.test","componentRoutes":[` + strings.Join(entries, ",") + `]}`)
	}
	var twentyOne []string
	for i := range 21 {
		twentyOne = append(twentyOne, setAction(fmt.Sprintf("X-H%d", i), "v"))
	}
	cases := []crdFaultCase{
		{fault: "hsts.crd-domain-patterns-min-items-dropped", crd: cfg, obj: hstsPolicy(`{"domainPatterns":[]}`),
			refused: refusal(contract.IngressConfigTooFewItems(p+"domainPatterns", 1))},
		{fault: "hsts.crd-domain-patterns-not-required", crd: cfg, obj: hstsPolicy(`{"preloadPolicy":"RequirePreload"}`),
			refused: refusal(contract.IngressConfigRequired(p + "domainPatterns"))},
		{fault: "hsts.crd-largest-max-age-minimum-dropped", crd: cfg, obj: hstsPolicy(`{"domainPatterns":["x.example.test"],"maxAge":{"largestMaxAge":-1}}`),
			refused: refusal(contract.IngressConfigBelowMinimum(p+"maxAge.largestMaxAge", 0))},
		{fault: "hsts.crd-preload-policy-enum-dropped", crd: cfg, obj: hstsPolicy(`{"domainPatterns":["x.example.test"],"preloadPolicy":"Sometimes"}`),
			refused: refusal(contract.IngressConfigUnsupported(p+"preloadPolicy", "Sometimes", "RequirePreload", "RequireNoPreload", "NoOpinion"))},
		{fault: "hsts.crd-largest-max-age-pruned", crd: cfg, obj: hstsPolicy(`{"domainPatterns":["x.example.test"],"maxAge":{"smallestMaxAge":1,"largestMaxAge":31536000}}`),
			pruned: []string{"spec", "requiredHSTSPolicies", "0", "maxAge", "largestMaxAge"}},
		{fault: "hsts.crd-largest-max-age-pruned", crd: cfg, obj: hstsPolicy(`{"domainPatterns":["x.example.test"],"maxAge":{"largestMaxAge":-1}}`),
			refused: refusal(contract.IngressConfigBelowMinimum(p+"maxAge.largestMaxAge", 0))},

		{fault: "component-routes.crd-spec-entries-not-keyed", crd: cfg, obj: specEntries(
			`{"namespace":"ns","name":"console","hostname":"console-custom.apps.example.test"}`,
			`{"namespace":"ns","name":"console","hostname":"again-custom.apps.example.test"}`),
			refused: refusal(contract.ComponentRouteDuplicate("spec.componentRoutes[1]", "ns", "console"))},
		{fault: "component-routes.crd-spec-namespace-pattern-dropped", crd: cfg, obj: specEntries(
			`{"namespace":"Bad_NS","name":"console","hostname":"console-custom.apps.example.test"}`),
			refused: refusal(contract.ComponentRoutePatternMismatch("spec.componentRoutes[0].namespace", "Bad_NS", contract.ComponentRouteNamespacePattern))},
		{fault: "component-routes.crd-consuming-users-max-items-dropped", crd: cfg, obj: statusEntry(
			"system:serviceaccount:a:a", "system:serviceaccount:a:b", "system:serviceaccount:a:c",
			"system:serviceaccount:a:d", "system:serviceaccount:a:e", "system:serviceaccount:a:f"),
			refused: refusal(contract.ComponentRouteConsumingUsersOverLimit)},
		{fault: "component-routes.crd-spec-name-min-length-dropped", crd: cfg, obj: specEntries(
			`{"namespace":"ns","name":"","hostname":"console-custom.apps.example.test"}`),
			refused: refusal(contract.ComponentRouteTooShort("spec.componentRoutes[0].name", "", 1))},

		{fault: "header-actions.crd-proxy-rule-dropped", crd: ic, obj: requestActions(`{"name":"Proxy","action":{"type":"Delete"}}`),
			refused: refusal(contract.IngressControllerHeaderDenied("proxy"))},
		{fault: "header-actions.crd-strict-transport-security-rule-dropped", crd: ic,
			obj:     ingressController(`{"httpHeaders":{"actions":{"response":[` + setAction("Strict-Transport-Security", "max-age=1") + `]}}}`),
			refused: refusal(contract.IngressControllerHeaderDenied("strict-transport-security"))},
		{fault: "header-actions.crd-cookie-rule-dropped", crd: ic, obj: requestActions(setAction("Cookie", "a=b")),
			refused: refusal(contract.IngressControllerHeaderDenied("cookie"))},
		{fault: "header-actions.crd-host-rule-dropped", crd: ic, obj: requestActions(setAction("Host", "other.example")),
			refused: refusal(contract.IngressControllerHostHeaderDenied)},
		{fault: "header-actions.crd-request-max-items-raised", crd: ic, obj: requestActions(twentyOne...),
			refused: refusal(contract.IngressControllerHeaderActionsOverLimit)},
		{fault: "header-actions.crd-request-list-not-keyed", crd: ic, obj: requestActions(setAction("X-A", "1"), `{"name":"X-A","action":{"type":"Delete"}}`),
			refused: refusal(contract.IngressControllerHeaderDuplicate)},
		{fault: "header-actions.crd-request-set-rule-dropped", crd: ic, obj: requestActions(`{"name":"X-A","action":{"type":"Delete","set":{"value":"v"}}}`),
			refused: refusal(contract.IngressControllerHeaderDeleteWithValue)},

		{fault: "client-tls.crd-policy-not-required", crd: ic, obj: clientTLS(`{"clientCA":{"name":"client-ca"}}`),
			refused: refusal(contract.IngressControllerRequired("spec.clientTLS.clientCertificatePolicy"))},
		{fault: "client-tls.crd-client-ca-not-required", crd: ic, obj: clientTLS(`{"clientCertificatePolicy":"Required"}`),
			refused: refusal(contract.IngressControllerRequired("spec.clientTLS.clientCA"))},
		{fault: "client-tls.crd-policy-enum-dropped", crd: ic, obj: clientTLS(`{"clientCertificatePolicy":"Sometimes","clientCA":{"name":"client-ca"}}`),
			refused: refusal(contract.IngressControllerUnsupported("spec.clientTLS.clientCertificatePolicy", "Sometimes", "", "Required", "Optional"))},
		{fault: "route-api.crd-weight-default-dropped", crd: routeCRDName,
			obj:       `{"apiVersion":"route.openshift.io/v1","kind":"Route","metadata":{"name":"r","namespace":"ns"},"spec":{"host":"r.apps.example.test","to":{"kind":"Service","name":"svc"}}}`,
			defaulted: "spec.to.weight"},
		{fault: "client-tls.crd-subject-patterns-checked", crd: ic, obj: clientTLS(`{"clientCertificatePolicy":"Required","clientCA":{"name":"client-ca"},"allowedSubjectPatterns":["("]}`),
			refusedUnder: true},
	}
	// The request list's value rule: each value a spec of its statements
	// has refused.
	for _, v := range []string{"%[src]", "%[res.hdr(X-B)]", "%{+Q}[ssl_c_der,hex]", "%{+Q}[ssl_c_s_dn]", "100%", "%{+Z}[req.hdr(X-B)]", "%[req.hdr(X_B)]"} {
		cases = append(cases, crdFaultCase{fault: "header-actions.crd-request-value-rule-dropped", crd: ic, obj: requestActions(setAction("X-A", v)),
			refused: refusal(contract.IngressControllerHeaderValueNotAllowed("req.hdr"))})
	}
	return cases
}

// Under each CRD fault the API server admits what the specs of its
// statements expect refused (or refuses what they expect admitted, or
// prunes what they read back), where the unaltered CRD makes the
// refusal the specs expect. A CEL rule's verdict needs the API server's
// CEL, which this module does not compile in: those faults are proven on
// a cluster only (make mutants), and here only changed
// (TestCRDFaultsAlterOneCRD).
func TestCRDFaultsChangeTheVerdicts(t *testing.T) {
	tested, celOnly := map[string]bool{}, map[string]bool{}
	for _, c := range crdFaultCases() {
		if c.refused != nil && celRefusal(*c.refused) {
			if !tested[c.fault] {
				celOnly[c.fault] = true
			}
			continue
		}
		tested[c.fault], celOnly[c.fault] = true, false
		t.Run(c.fault, func(t *testing.T) {
			verdict := func(fault string) (map[string]any, string) {
				crds := loadCRDs(t)
				if err := crdFaults(crds, fault); err != nil {
					t.Fatal(err)
				}
				var obj map[string]any
				if err := json.Unmarshal([]byte(c.obj), &obj); err != nil {
					t.Fatal(err)
				}
				for _, crd := range crds {
					if crd.Name == c.crd {
						return apiVerdict(t, crd, obj)
					}
				}
				t.Fatalf("no CRD %s", c.crd)
				return nil, ""
			}
			origObj, orig := verdict("")
			altObj, alt := verdict(c.fault)
			switch {
			case c.refused != nil:
				// kube-openapi's own words: the API server rewords them
				// as the spec's refusal (checked apart).
				if orig == "" {
					t.Errorf("unaltered: admitted, want %s", c.refused)
				}
				if alt != "" {
					t.Errorf("under the fault: refused %q, want admitted", alt)
				}
			case c.refusedUnder:
				if orig != "" || alt == "" {
					t.Errorf("unaltered %q, under the fault %q: want admitted, then refused", orig, alt)
				}
			case c.defaulted != "":
				// The API server's structural defaulting applies the
				// schema's default: the schema is what is compared.
				if orig != "" || alt != "" {
					t.Errorf("refused: unaltered %q, under the fault %q", orig, alt)
				}
				if o, a := defaultAt(t, c.crd, c.defaulted, ""), defaultAt(t, c.crd, c.defaulted, c.fault); o == nil || a != nil {
					t.Errorf("%s: default unaltered %s, under the fault %s; want one, then none", c.defaulted, o, a)
				}
			default:
				if orig != "" || alt != "" {
					t.Errorf("refused: unaltered %q, under the fault %q", orig, alt)
				}
				if !has(origObj, c.pruned) || has(altObj, c.pruned) {
					t.Errorf("%v: kept unaltered %t, under the fault %t; want kept, then pruned", c.pruned, has(origObj, c.pruned), has(altObj, c.pruned))
				}
			}
		})
	}
	for _, id := range crdFaultIDs(t) {
		if !tested[id] && !celOnly[id] {
			t.Errorf("%s: no case", id)
		}
	}
}

// defaultAt is the default of the schema at path (schemaEditor's form) in
// the first version of CRD crd under fault; nil for none.
func defaultAt(t *testing.T, crd, path, fault string) *apiextensionsv1.JSON {
	t.Helper()
	crds := loadCRDs(t)
	if err := crdFaults(crds, fault); err != nil {
		t.Fatal(err)
	}
	var found *apiextensionsv1.JSON
	e := &schemaEditor{crds: crds}
	e.edit(crd, path, func(s *apiextensionsv1.JSONSchemaProps) bool { found = s.Default; return true })
	if e.err != nil {
		t.Fatal(e.err)
	}
	return found
}

func celRefusal(r contract.Refusal) bool {
	for _, w := range r.Wordings {
		if !strings.Contains(w.Source, "CEL") {
			return false
		}
	}
	return true
}

func has(v any, path []string) bool {
	for _, p := range path {
		switch n := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = n[p]; !ok {
				return false
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i >= len(n) {
				return false
			}
			v = n[i]
		default:
			return false
		}
	}
	return true
}
