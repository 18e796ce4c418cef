package reports

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// The CI workflows (.github/workflows: the nightly job that runs make e2e
// FLAKE_ATTEMPTS=2, carries history.jsonl and publishes the trend page)
// pass actionlint, a Go tool dependency of the module (go.mod's tool
// block), with shellcheck on their scripts when it is installed.
func TestWorkflowsPassActionlint(t *testing.T) {
	workflows, err := filepath.Glob("../.github/workflows/*.y*ml")
	if err != nil {
		t.Fatal(err)
	}
	if len(workflows) == 0 {
		t.Fatal("no workflow in .github/workflows")
	}
	cmd := exec.Command("go", append([]string{"tool", "actionlint", "-no-color"}, workflows...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("actionlint %v: %v\n%s", workflows, err, out)
	}
}
