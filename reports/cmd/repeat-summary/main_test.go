package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// id is the label that carries a spec's ID (framework.ID).
func id(s contract.SpecID) string { return contract.SpecIDLabel(s) }

func TestReadTakesEachItsOutcomeAsTheConformanceReportDoes(t *testing.T) {
	suite := types.Report{
		SuiteConfig: types.SuiteConfig{LabelFilter: "hsts"},
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
			{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"HSTS"}, LeafNodeText: "sets the header", LeafNodeLabels: []string{"hsts", id("hsts/header-set")}, State: types.SpecStatePassed},
			{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"HSTS"}, LeafNodeText: "refuses", LeafNodeLabels: []string{"hsts", id("hsts/bad-max-age-refused")}, State: types.SpecStateFailed,
				Failure: types.Failure{Message: "timed out\nafter 2m"}},
			{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"Client TLS"}, LeafNodeText: "refuses", LeafNodeLabels: []string{"client-tls", id("client-tls/revoked-refused")}, State: types.SpecStateSkipped},
		},
	}
	data, err := json.Marshal([]types.Report{suite})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := read(file)
	want := []reports.SpecRun{
		{ID: "hsts/header-set", Name: "HSTS sets the header", State: reports.Passed},
		{ID: "hsts/bad-max-age-refused", Name: "HSTS refuses", State: reports.Failed, Failure: "timed out"},
		{ID: "client-tls/revoked-refused", Name: "Client TLS refuses", State: reports.Skipped},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%+v %v\nwant %+v", got, err, want)
	}
}
