package reports

import (
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// Synthetic Ginkgo reports, shaped as the suite's: a Describe per feature
// carrying its label, Its inside.

// it is one It of the Describe named container, labelled as the suite
// labels it.
func it(container, text string, containerLabels []string, state types.SpecState, message string, leafLabels ...string) types.SpecReport {
	s := types.SpecReport{
		ContainerHierarchyTexts:  []string{container},
		ContainerHierarchyLabels: [][]string{containerLabels},
		LeafNodeType:             types.NodeTypeIt,
		LeafNodeText:             text,
		LeafNodeLabels:           leafLabels,
		State:                    state,
		RunTime:                  2 * time.Second,
		NumAttempts:              1,
	}
	if message != "" {
		s.Failure = types.Failure{Message: message}
	}
	return s
}

func passed(container, text string, labels []string, leafLabels ...string) types.SpecReport {
	return it(container, text, labels, types.SpecStatePassed, "", leafLabels...)
}

var platform = contract.JudgesPlatformLabel

// The names of goodSuite's specs.
const (
	specEdge        = "Router serves an edge route"
	specBadHost     = "Router refuses a route with a bad host"
	specHSTS        = "HSTS per route sets the header on edge routes"
	specHeaders     = "HTTP header actions sets a request header"
	specShard       = "IngressController sharding serves only its namespaces"
	specPolicy      = "Required HSTS policies refuses a route without HSTS"
	specRevoked     = "Client TLS refuses a revoked certificate"
	specComponent   = "Component routes moves the route to its custom host"
	specDelegation  = "Delegation (IngressRoute) serves a delegated path"
	specClusterNode = "Hermetic kind cluster has a Ready node"
)

// goodSuite is a run in which every spec of every feature passed.
func goodSuite() types.Report {
	return types.Report{
		SuiteDescription: "Router conformance",
		SuiteSucceeded:   true,
		StartTime:        time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC),
		RunTime:          370 * time.Second,
		SuiteConfig:      types.SuiteConfig{ParallelTotal: 4},
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed},
			passed("Router", "serves an edge route", []string{"router"}),
			passed("Router", "refuses a route with a bad host", []string{"router"}, platform),
			passed("HSTS per route", "sets the header on edge routes", []string{"hsts"}),
			passed("HTTP header actions", "sets a request header", []string{"header-actions"}),
			passed("IngressController sharding", "serves only its namespaces", []string{"sharding"}),
			passed("Required HSTS policies", "refuses a route without HSTS", []string{"hsts-policy"}, platform),
			passed("Client TLS", "refuses a revoked certificate", []string{"client-tls"}),
			passed("Component routes", "moves the route to its custom host", []string{"component-routes"}, platform),
			passed("Delegation (IngressRoute)", "serves a delegated path", []string{"delegation"}),
			passed("Hermetic kind cluster", "has a Ready node", []string{"smoke"}),
		},
	}
}

// setSpec replaces the It named name.
func setSpec(r *types.Report, name string, state types.SpecState, message string) {
	for i, s := range r.SpecReports {
		if s.FullText() == name {
			r.SpecReports[i].State = state
			r.SpecReports[i].Failure = types.Failure{Message: message}
			if state == types.SpecStateSkipped && message == "" {
				r.SpecReports[i].NumAttempts = 0
			}
			return
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
		Suite:             Suite{Module: SuiteModule, Version: "v0.2.0", Commit: "0123abc", Dirty: false},
		Profile:           "kind",
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
