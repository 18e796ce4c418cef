package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

var features = []Feature{
	{Name: "Hermetic cluster", Label: "smoke", Harness: true},
	{Name: "HSTS", Label: "hsts"},
	{Name: "Client TLS", Label: "client-tls"},
	{Name: "Delegation", Label: "delegation"},
	{Name: "Header actions", Label: "header-actions"},
}

func TestBuildGroupsSpecsByFeatureAndDecidesTheRun(t *testing.T) {
	specs := []SpecResult{
		{Name: "edge has HSTS", Labels: []string{"hsts"}, State: Passed},
		{Name: "passthrough has none", Labels: []string{"hsts"}, State: Passed},
		{Name: "revoked refused", Labels: []string{"client-tls", "crl"}, State: Failed},
		{Name: "valid served", Labels: []string{"client-tls"}, State: Passed},
		{Name: "a delegation spec", Labels: []string{"delegation"}, State: Skipped},
		{Name: "no feature", Labels: []string{"smoke"}, State: Passed},
	}
	claimed := map[string]bool{"hsts": true, "client-tls": true, "header-actions": true}
	r := Build(Meta{Profile: "kind"}, features, claimed, specs)
	want := map[string]string{"Hermetic cluster": Skipped, "HSTS": Passed, "Client TLS": Failed, "Delegation": Unsupported, "Header actions": Skipped}
	for _, f := range r.Features {
		if f.Result != want[f.Name] {
			t.Errorf("%s: %s, want %s", f.Name, f.Result, want[f.Name])
		}
	}
	if r.Result != Failed {
		t.Errorf("run: %s, want failed", r.Result)
	}
	if r.APIVersion != APIVersion || r.Kind != Kind {
		t.Errorf("schema %s/%s", r.APIVersion, r.Kind)
	}
	if got := r.Features[2].Failed; len(got) != 1 || got[0] != "revoked refused" {
		t.Errorf("client TLS failed specs: %v", got)
	}
	// Nothing failed but a claimed feature ran nothing: incomplete.
	specs[2].State = Passed
	if r := Build(Meta{}, features, claimed, specs); r.Result != Incomplete {
		t.Errorf("a claimed feature skipped, run %s, want incomplete", r.Result)
	}
	// Every claimed feature passing passes the run.
	specs = append(specs, SpecResult{Name: "set header", Labels: []string{"header-actions"}, State: Passed})
	if r := Build(Meta{}, features, claimed, specs); r.Result != Passed {
		t.Errorf("all claimed features passed, run %s", r.Result)
	}
}

func TestWriteProducesYAMLJSONAndSummary(t *testing.T) {
	r := Build(Meta{Implementation: Implementation{Name: "reference-router", Version: "dev"}, Profile: "kind", Date: time.Unix(0, 0)},
		features, map[string]bool{"hsts": true}, []SpecResult{{Name: "edge has HSTS", Labels: []string{"hsts"}, State: Passed}})
	dir := t.TempDir()
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(filepath.Join(dir, "conformance.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := yaml.Unmarshal(y, &back); err != nil || back.Features[1].Result != Passed || back.Implementation.Name != "reference-router" || back.Kind != Kind {
		t.Errorf("YAML round trip: %v %+v", err, back)
	}
	s, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	for _, want := range []string{"# Router conformance: PASSED", "| HSTS | passed | 1 | 0 | 0 |", "| Delegation | unsupported |", "Checks of the test environment", "| Hermetic cluster | skipped |"} {
		if !strings.Contains(string(s), want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}
