package conformance

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// componentRouteSchemaCase is one invalid write of a namespace's entries:
// spec (or status, when spec is nil) makes the entries from the valid
// route, want is the API server's refusal of them.
type componentRouteSchemaCase struct {
	spec   func(r framework.ComponentRoute) []configv1.ComponentRouteSpec
	status func(r framework.ComponentRoute) []configv1.ComponentRouteStatus
	want   func(r framework.ComponentRoute) contract.Refusal
}

// specEntryWith is the route's spec entry, changed.
func specEntryWith(change func(*configv1.ComponentRouteSpec)) func(framework.ComponentRoute) []configv1.ComponentRouteSpec {
	return func(r framework.ComponentRoute) []configv1.ComponentRouteSpec {
		e := r.Spec()
		change(&e[0])
		return e
	}
}

// statusEntryWith is the route's status entry, changed.
func statusEntryWith(change func(*configv1.ComponentRouteStatus)) func(framework.ComponentRoute) []configv1.ComponentRouteStatus {
	return func(r framework.ComponentRoute) []configv1.ComponentRouteStatus {
		e := r.Status()
		change(&e[0])
		return e
	}
}

// describeComponentRouteSchema: what the pinned openshift/api Ingress
// CRD refuses of spec.componentRoutes and status.componentRoutes, in the
// API server's words, each beside the entries it admits.
func describeComponentRouteSchema(f *framework.Framework) {
	// The two entries of the positive control: "console", and an entry
	// whose name has the longest length admitted (its hosts named apart,
	// a host label being at most 63 characters).
	longest := func(r framework.ComponentRoute) framework.ComponentRoute {
		r.Name = strings.Repeat("n", contract.ComponentRouteNameMaxLength)
		return r
	}
	validSpec := func(r framework.ComponentRoute) []configv1.ComponentRouteSpec {
		long := longest(r).Spec()
		long[0].Hostname = configv1.Hostname("longest-custom." + r.Domain)
		return append(r.Spec(), long...)
	}
	validStatus := func(r framework.ComponentRoute) []configv1.ComponentRouteStatus {
		long := longest(r).Status()
		long[0].DefaultHostname = configv1.Hostname("longest." + r.Domain)
		return append(r.Status(), long...)
	}
	badHost := func(r framework.ComponentRoute) configv1.Hostname {
		return configv1.Hostname("bad_host." + r.Domain)
	}
	tooLong := strings.Repeat("n", contract.ComponentRouteNameMaxLength+1)
	const badNamespace = "Bad_NS"

	// Document: the custom route configuration enhancement, section
	// "Proposal" (ComponentRoutes "logically keyed by
	// .spec.componentRoutes[index].{namespace,name}", status "keyed the
	// same way"; an entry's namespace "must be a real namespace"; "basic
	// restrictions on strings as you'd expect")
	// Upstream: openshift/api config/v1/types_ingress.go (IngressSpec and
	// IngressStatus componentRoutes: listType=map, listMapKey namespace
	// and name; ComponentRouteSpec and ComponentRouteStatus namespace:
	// Pattern, MinLength 1, MaxLength 63; name: MinLength 1, MaxLength 256;
	// Hostname: Pattern), in the words of k8s.io/apiextensions-apiserver
	// pkg/apiserver/schema/listtype/validation.go (validateListMap) and
	// pkg/apiserver/validation/validation.go (kubeOpenAPIResultToFieldErrors)
	DescribeTable("refuses entries the CRD does not allow", framework.JudgesPlatform,
		func(ctx SpecContext, c componentRouteSchemaCase) {
			jig := framework.NewComponentRouteJig(f, f.SpecNamespace(ctx, "component-schema"))
			route := jig.Route("console", "cert")
			By("positive control: two entries of one namespace under two names, one the longest name admitted, in spec and status")
			jig.Set(ctx, validSpec(route), validStatus(route))
			var err error
			if c.spec != nil {
				err = jig.UpdateSpec(ctx, c.spec(route))
			} else {
				err = jig.UpdateStatus(ctx, c.status(route))
			}
			framework.ExpectRefusal(Default, err, c.want(route))
		},
		Entry("two spec entries of one namespace and name", framework.ID("component-routes/refuse-duplicate-spec-entry"), componentRouteSchemaCase{
			spec: func(r framework.ComponentRoute) []configv1.ComponentRouteSpec {
				again := r.Spec()
				again[0].Hostname = configv1.Hostname("again-custom." + r.Domain)
				return append(r.Spec(), again...)
			},
			want: func(r framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRouteDuplicate("spec.componentRoutes[1]", r.Namespace, r.Name)
			},
		}),
		Entry("two status entries of one namespace and name", framework.ID("component-routes/refuse-duplicate-status-entry"), componentRouteSchemaCase{
			status: func(r framework.ComponentRoute) []configv1.ComponentRouteStatus {
				again := r.Status()
				again[0].DefaultHostname = configv1.Hostname("again." + r.Domain)
				return append(r.Status(), again...)
			},
			want: func(r framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRouteDuplicate("status.componentRoutes[1]", r.Namespace, r.Name)
			},
		}),
		Entry("a spec entry whose namespace is no namespace name", framework.ID("component-routes/refuse-bad-namespace-spec"), componentRouteSchemaCase{
			spec: specEntryWith(func(e *configv1.ComponentRouteSpec) { e.Namespace = badNamespace }),
			want: func(framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRoutePatternMismatch("spec.componentRoutes[0].namespace", badNamespace, contract.ComponentRouteNamespacePattern)
			},
		}),
		Entry("a status entry whose namespace is no namespace name", framework.ID("component-routes/refuse-bad-namespace-status"), componentRouteSchemaCase{
			status: statusEntryWith(func(e *configv1.ComponentRouteStatus) { e.Namespace = badNamespace }),
			want: func(framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRoutePatternMismatch("status.componentRoutes[0].namespace", badNamespace, contract.ComponentRouteNamespacePattern)
			},
		}),
		Entry("a spec entry whose hostname is no host name", framework.ID("component-routes/refuse-bad-hostname-spec"), componentRouteSchemaCase{
			spec: func(r framework.ComponentRoute) []configv1.ComponentRouteSpec {
				return specEntryWith(func(e *configv1.ComponentRouteSpec) { e.Hostname = badHost(r) })(r)
			},
			want: func(r framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRoutePatternMismatch("spec.componentRoutes[0].hostname", string(badHost(r)), contract.ComponentRouteHostnamePattern)
			},
		}),
		Entry("a status entry whose defaultHostname is no host name", framework.ID("component-routes/refuse-bad-hostname-status"), componentRouteSchemaCase{
			status: func(r framework.ComponentRoute) []configv1.ComponentRouteStatus {
				return statusEntryWith(func(e *configv1.ComponentRouteStatus) { e.DefaultHostname = badHost(r) })(r)
			},
			want: func(r framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRoutePatternMismatch("status.componentRoutes[0].defaultHostname", string(badHost(r)), contract.ComponentRouteHostnamePattern)
			},
		}),
		Entry("a spec entry with an empty name", framework.ID("component-routes/refuse-empty-name-spec"), componentRouteSchemaCase{
			spec: specEntryWith(func(e *configv1.ComponentRouteSpec) { e.Name = "" }),
			want: func(framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRouteTooShort("spec.componentRoutes[0].name", "", 1)
			},
		}),
		Entry("a status entry with an empty name", framework.ID("component-routes/refuse-empty-name-status"), componentRouteSchemaCase{
			status: statusEntryWith(func(e *configv1.ComponentRouteStatus) { e.Name = "" }),
			want: func(framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRouteTooShort("status.componentRoutes[0].name", "", 1)
			},
		}),
		Entry("a spec entry whose name is one character too long", framework.ID("component-routes/refuse-long-name-spec"), componentRouteSchemaCase{
			spec: specEntryWith(func(e *configv1.ComponentRouteSpec) { e.Name = tooLong }),
			want: func(framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRouteTooLong("spec.componentRoutes[0].name", contract.ComponentRouteNameMaxLength)
			},
		}),
		Entry("a status entry whose name is one character too long", framework.ID("component-routes/refuse-long-name-status"), componentRouteSchemaCase{
			status: statusEntryWith(func(e *configv1.ComponentRouteStatus) { e.Name = tooLong }),
			want: func(framework.ComponentRoute) contract.Refusal {
				return contract.ComponentRouteTooLong("status.componentRoutes[0].name", contract.ComponentRouteNameMaxLength)
			},
		}),
	)
}
