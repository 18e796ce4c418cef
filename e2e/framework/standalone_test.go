package framework

import (
	"os/exec"
	"strings"
	"testing"
)

// The suite judges routers; it must not take its beliefs from the one it
// ships. Nothing the specs build on may come from router/ (the reference
// router): shared names and wordings live in contract/.
func TestSuiteImportsNothingFromTheReferenceRouter(t *testing.T) {
	module, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	cmd := exec.Command("go", "list", "-deps", "-tags", "e2e", "./e2e/...")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	forbidden := strings.TrimSpace(string(module)) + "/router"
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == forbidden || strings.HasPrefix(pkg, forbidden+"/") {
			t.Errorf("e2e depends on %s (move what it needs into contract/)", pkg)
		}
	}
}
