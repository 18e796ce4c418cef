package reports

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// Synthetic Ginkgo reports, shaped as the suite's: a Describe per feature
// carrying its label, Its inside, each with its spec ID as a label of its
// own (framework.ID).

// it is one It of the Describe named container, labelled as the suite
// labels it. Its ID is the one among leafLabels (idLabel), else derived
// from its feature and text: "<first feature label>/<text in dashes>".
func it(container, text string, containerLabels []string, state types.SpecState, message string, leafLabels ...string) types.SpecReport {
	all := slices.Concat(containerLabels, leafLabels)
	if len(contract.SpecIDsOf(all)) == 0 {
		leafLabels = append(slices.Clone(leafLabels), idLabel(derivedID(all, text)))
	}
	file := "/src/suite/e2e/conformance/" + strings.ReplaceAll(string(derivedID(all, text).Feature()), "-", "_") + ".go"
	s := types.SpecReport{
		ContainerHierarchyTexts:     []string{container},
		ContainerHierarchyLabels:    [][]string{containerLabels},
		ContainerHierarchyLocations: []types.CodeLocation{{FileName: file, LineNumber: 20}},
		LeafNodeLocation:            types.CodeLocation{FileName: file, LineNumber: 40},
		LeafNodeType:                types.NodeTypeIt,
		LeafNodeText:                text,
		LeafNodeLabels:              leafLabels,
		State:                       state,
		RunTime:                     2 * time.Second,
		NumAttempts:                 1,
	}
	if message != "" {
		s.Failure = types.Failure{Message: message}
	}
	return s
}

func passed(container, text string, labels []string, leafLabels ...string) types.SpecReport {
	return it(container, text, labels, types.SpecStatePassed, "", leafLabels...)
}

// idLabel is the label that carries id, as framework.ID gives it.
func idLabel(id contract.SpecID) string { return contract.SpecIDLabel(id) }

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// derivedID is "<feature>/<text in dashes>": the feature part is the
// spec's first feature label (its first label when it has none: a spec
// without a feature still has an ID, so that a test of the one defect is
// not a test of the other).
func derivedID(labels []string, text string) contract.SpecID {
	feature := "unlabelled"
	if features := contract.FeaturesOf(labels); len(features) > 0 {
		feature = string(features[0])
	} else if len(labels) > 0 {
		feature = labels[0]
	}
	return contract.SpecID(feature + "/" + strings.Trim(nonWord.ReplaceAllString(strings.ToLower(text), "-"), "-"))
}

var platform = contract.JudgesPlatformLabel

// The names (texts) of goodSuite's specs.
const (
	specEdge        = "Router serves an edge route"
	specBadHost     = "Router refuses a route with a bad host"
	specHSTS        = "HSTS per route sets the header on edge routes"
	specHeaders     = "HTTP header actions sets a request header"
	specShard       = "IngressController sharding serves only its namespaces"
	specPolicy      = "Required HSTS policies refuses a route without HSTS"
	specRevoked     = "Client TLS refuses a revoked certificate"
	specComponent   = "Component routes moves the route to its custom host"
	specAnnotations = "Route annotations answers 504 past a route's timeout"
	specDelegation  = "Delegation (IngressRoute) serves a delegated path"
	specClusterNode = "Hermetic kind cluster has a Ready node"
)

// The IDs of goodSuite's specs.
const (
	idEdge        contract.SpecID = "router/edge-served"
	idBadHost     contract.SpecID = "router/bad-host-refused"
	idHSTS        contract.SpecID = "hsts/edge-header-set"
	idHeaders     contract.SpecID = "header-actions/request-header-set"
	idShard       contract.SpecID = "sharding/own-namespaces-only"
	idPolicy      contract.SpecID = "hsts-policy/route-without-hsts-refused"
	idRevoked     contract.SpecID = "client-tls/revoked-refused"
	idComponent   contract.SpecID = "component-routes/custom-host-moved"
	idAnnotations contract.SpecID = "route-annotations/timeout-http"
	idDelegation  contract.SpecID = "delegation/delegated-path-served"
	idClusterNode contract.SpecID = "smoke/node-ready"
)

// goodSuite is a certification run in which every spec of every feature
// passed: Ginkgo's configuration as the run path gives it, and the
// suite's run record (goodRecord) on its "conformance report" node.
func goodSuite() types.Report {
	g := types.Report{
		SuiteDescription: "Router conformance",
		SuitePath:        "/src/suite/e2e",
		SuiteSucceeded:   true,
		StartTime:        time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC),
		RunTime:          370 * time.Second,
		PreRunStats:      types.PreRunStats{TotalSpecs: 11, SpecsThatWillRun: 11},
		SuiteConfig:      types.SuiteConfig{ParallelTotal: 4, RandomSeed: 1763874000, Timeout: contract.CertificationTimeouts().Run},
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed},
			passed("Router", "serves an edge route", []string{"router"}, idLabel(idEdge)),
			passed("Router", "refuses a route with a bad host", []string{"router"}, platform, idLabel(idBadHost)),
			passed("HSTS per route", "sets the header on edge routes", []string{"hsts"}, idLabel(idHSTS)),
			passed("HTTP header actions", "sets a request header", []string{"header-actions"}, idLabel(idHeaders)),
			passed("IngressController sharding", "serves only its namespaces", []string{"sharding"}, idLabel(idShard)),
			passed("Required HSTS policies", "refuses a route without HSTS", []string{"hsts-policy"}, platform, idLabel(idPolicy)),
			passed("Client TLS", "refuses a revoked certificate", []string{"client-tls"}, idLabel(idRevoked)),
			passed("Component routes", "moves the route to its custom host", []string{"component-routes"}, platform, idLabel(idComponent)),
			passed("Route annotations", "answers 504 past a route's timeout", []string{"route-annotations"}, idLabel(idAnnotations)),
			passed("Delegation (IngressRoute)", "serves a delegated path", []string{"delegation"}, idLabel(idDelegation)),
			passed("Hermetic kind cluster", "has a Ready node", []string{"smoke"}, idLabel(idClusterNode)),
		},
	}
	setRecord(&g, goodRecord())
	return g
}

// goodRecord is the suite's record of a certification run of every
// feature, as goodMeta describes it.
func goodRecord() RunRecord {
	meta := goodMeta()
	meta.Claimed = allFeatures()
	return RunRecord{Meta: meta, Certify: true, Timeouts: contract.CertificationTimeouts()}
}

// recordNode is the name of the suite's ReportAfterSuite node, which
// records the run.
const recordNode = "conformance report"

// setRecord puts rec on the report's "conformance report" node, as the
// suite records its run (AddReportEntry(RunRecordEntry, ...)), adding the
// node when the report has none.
func setRecord(g *types.Report, rec RunRecord) {
	value := types.WrapEntryValue(rec)
	// As report.json has it (Ginkgo fills AsJSON when it writes the
	// report), so that the record reads back from memory too.
	j, err := json.Marshal(rec)
	if err != nil {
		panic(err)
	}
	value.AsJSON = string(j)
	entry := types.ReportEntry{Name: RunRecordEntry, Value: value, Time: g.StartTime.Add(g.RunTime)}
	for i, s := range g.SpecReports {
		if s.LeafNodeType == types.NodeTypeReportAfterSuite && s.LeafNodeText == recordNode {
			g.SpecReports[i].ReportEntries = types.ReportEntries{entry}
			return
		}
	}
	g.SpecReports = append(g.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeReportAfterSuite, LeafNodeText: recordNode,
		State: types.SpecStatePassed, RunTime: 40 * time.Millisecond, ReportEntries: types.ReportEntries{entry}})
}

// editRecord changes the report's run record.
func editRecord(g *types.Report, change func(*RunRecord)) {
	rec, err := ReadRunRecord(*g)
	if err != nil {
		panic(err)
	}
	change(&rec)
	setRecord(g, rec)
}

// dropRecord takes the run record off the report, as a suite before the
// record wrote it.
func dropRecord(g *types.Report) {
	g.SpecReports = slices.DeleteFunc(g.SpecReports, func(s types.SpecReport) bool {
		return s.LeafNodeType == types.NodeTypeReportAfterSuite && s.LeafNodeText == recordNode
	})
}

// setSpec replaces the state of the It named name.
func setSpec(r *types.Report, name string, state types.SpecState, message string) {
	s := specNamed(r, name)
	s.State = state
	s.Failure = types.Failure{Message: message}
	if state.Is(types.SpecStateFailureStates) {
		// As Ginkgo records a failure in the It itself: the console
		// prints "[It]" before its text.
		s.Failure.FailureNodeContext, s.Failure.FailureNodeType = types.FailureNodeIsLeafNode, types.NodeTypeIt
	}
	if state == types.SpecStateSkipped && message == "" {
		s.NumAttempts = 0
	}
}

// reword gives the It named name another text, its ID kept: a spec
// reworded between two runs or versions.
func reword(r *types.Report, name, text string) {
	specNamed(r, name).LeafNodeText = text
}

// dropID takes the ID label off the It named name, as a suite before
// v0.3.0 wrote it.
func dropID(r *types.Report, name string) {
	s := specNamed(r, name)
	s.LeafNodeLabels = withoutIDs(s.LeafNodeLabels)
	for i, labels := range s.ContainerHierarchyLabels {
		s.ContainerHierarchyLabels[i] = withoutIDs(labels)
	}
}

func withoutIDs(labels []string) []string {
	return slices.DeleteFunc(slices.Clone(labels), func(l string) bool { return len(contract.SpecIDsOf([]string{l})) > 0 })
}

// specNamed is the It named name.
func specNamed(r *types.Report, name string) *types.SpecReport {
	for i, s := range r.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt && s.FullText() == name {
			return &r.SpecReports[i]
		}
	}
	panic("no spec " + name)
}

func allFeatures() []contract.Feature {
	var out []contract.Feature
	for _, f := range contract.Features {
		out = append(out, f.Feature)
	}
	return out
}

// goodMeta is a complete provenance.
func goodMeta() Meta {
	return Meta{
		Implementation: Implementation{
			Organization: "Acme", Project: "acme-router", URL: "https://acme.example/router", Version: "1.2.3",
			Contact: []string{"@acme/router-team"}, Image: "registry.example/acme/router:1.2.3",
			ImageDigest: "sha256:" + hex64('d'), ImageID: "sha256:" + hex64('e'), HAProxyVersion: "3.0.11-1",
		},
		Suite:             Suite{Module: SuiteModule, Version: "v0.3.0", Commit: "0123abc", Dirty: false, Binary: &Binary{SHA256: strings.Repeat("b", 64), GoVersion: "go1.25.0", BuildInfo: "path\tgithub.com/router-conformance/suite/e2e"}},
		Profile:           "kind",
		OpenShiftRelease:  contract.DefaultRelease,
		Platform:          PlatformStandIns,
		KubernetesVersion: "v1.33.13",
		NodeImage:         NodeImage{Ref: "kindest/node:v1.33.13-hermetic", ID: "sha256:" + hex64('f')},
		Options:           map[string]string{"procs": "4", "consecutive": "3", "timeout-route": "2m0s"},
		Date:              time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC),
		Duration:          Duration(370 * time.Second),
	}
}

func hex64(c byte) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return string(b)
}
