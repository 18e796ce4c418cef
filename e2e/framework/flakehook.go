package framework

import (
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// FailOnceEnv names the test-only hook that makes a spec flake on
// purpose: every spec whose full text contains its value fails its first
// attempt, so that `make e2e FLAKE_ATTEMPTS=2` shows how a flake is
// reported (junit.xml, summary.md, conformance.yaml, history.jsonl). Off
// when unset or empty. The report records it among the effective options
// (reports.OptionFailOnce), and neither make certify, -certify nor the
// verifier accepts a run that had it.
const FailOnceEnv = "ROUTER_CONFORMANCE_TEST_FAIL_ONCE"

// FailOnceHook is the hook's value, "" when it is off.
func FailOnceHook() string { return os.Getenv(FailOnceEnv) }

// FailOnce is the hook, a BeforeEach body: it fails the running spec when
// this is its first attempt and its full text contains the hook's value;
// it does nothing when the hook is off.
func FailOnce() {
	failOnce(FailOnceHook(), ginkgo.CurrentSpecReport(), ginkgo.Fail)
}

func failOnce(hook string, spec types.SpecReport, fail func(string, ...int)) {
	if hook == "" || spec.NumAttempts != 1 || !strings.Contains(spec.FullText(), hook) {
		return
	}
	fail(fmt.Sprintf("%s=%q: this spec's first attempt fails on purpose (a test-only hook; a retry runs it for real)", FailOnceEnv, hook), 1)
}
