package framework

import (
	"testing"

	"github.com/router-conformance/suite/contract"
)

func TestFeatureOfSpecFile(t *testing.T) {
	for file, want := range map[string]contract.Feature{
		"hsts.go":                  contract.FeatureHSTS,
		"hsts_wildcard.go":         contract.FeatureHSTS,
		"hsts_policy.go":           contract.FeatureHSTSPolicy,
		"hsts_policy_admission.go": contract.FeatureHSTSPolicy,
		"header_actions_values.go": contract.FeatureHeaderActions,
		"client_tls.go":            contract.FeatureClientTLS,
		"headers.go":               "",
		"hstsx.go":                 "",
		"suite.go":                 "",
		"component_routes_foo.go":  contract.FeatureComponentRoutes,
	} {
		if got := FeatureOfSpecFile(file); got != want {
			t.Errorf("FeatureOfSpecFile(%q) = %q, want %q", file, got, want)
		}
	}
}
