package reports

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

func TestFromGinkgoReadsEveryItWithItsStateAndReason(t *testing.T) {
	panicked := it("Client TLS", "survives a panic", []string{"client-tls"}, types.SpecStatePanicked, "Test Panicked", idLabel("client-tls/panic-survived"))
	panicked.Failure.ForwardedPanic = "runtime error: index out of range\ngoroutine 1"
	r := types.Report{
		SuiteSucceeded: false,
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
			passed("Router", "serves an edge route", []string{"router"}, idLabel("router/edge-served")),
			passed("Router", "refuses a bad host", []string{"router"}, platform, idLabel("router/bad-host-refused")),
			it("Client TLS", "refuses a revoked certificate", []string{"client-tls"}, types.SpecStateFailed, "Expected\n    <int>: 200\nto equal 403", idLabel("client-tls/revoked-refused")),
			panicked,
			it("Client TLS", "times out", []string{"client-tls"}, types.SpecStateTimedout, "", idLabel("client-tls/timed-out")),
			it("Delegation (IngressRoute)", "delegates", []string{"delegation"}, types.SpecStateSkipped, "needs feature delegation, which this profile does not claim: reported as unsupported", idLabel("delegation/delegated")),
			it("HSTS per route", "is pending", []string{"hsts"}, types.SpecStatePending, "", idLabel("hsts/pending")),
			{LeafNodeType: types.NodeTypeReportAfterSuite, State: types.SpecStatePassed},
		},
	}
	specs, run := FromGinkgo(r)
	want := []SpecResult{
		{ID: "router/edge-served", Name: "Router serves an edge route", Labels: []string{"router", "id:router.edge-served"}, State: Passed, Duration: 2 * time.Second, Judges: contract.JudgesRouter},
		{ID: "router/bad-host-refused", Name: "Router refuses a bad host", Labels: []string{"router", platform, "id:router.bad-host-refused"}, State: Passed, Duration: 2 * time.Second, Judges: contract.JudgesPlatform},
		{ID: "client-tls/revoked-refused", Name: "Client TLS refuses a revoked certificate", Labels: []string{"client-tls", "id:client-tls.revoked-refused"}, State: Failed, Duration: 2 * time.Second, Judges: contract.JudgesRouter, Reason: "Expected"},
		{ID: "client-tls/panic-survived", Name: "Client TLS survives a panic", Labels: []string{"client-tls", "id:client-tls.panic-survived"}, State: Failed, Duration: 2 * time.Second, Judges: contract.JudgesRouter, Reason: "Test Panicked: runtime error: index out of range"},
		{ID: "client-tls/timed-out", Name: "Client TLS times out", Labels: []string{"client-tls", "id:client-tls.timed-out"}, State: Failed, Duration: 2 * time.Second, Judges: contract.JudgesRouter, Reason: "timedout"},
		{ID: "delegation/delegated", Name: "Delegation (IngressRoute) delegates", Labels: []string{"delegation", "id:delegation.delegated"}, State: Skipped, Duration: 2 * time.Second, Judges: contract.JudgesRouter,
			Reason: "needs feature delegation, which this profile does not claim: reported as unsupported"},
		{ID: "hsts/pending", Name: "HSTS per route is pending", Labels: []string{"hsts", "id:hsts.pending"}, State: Skipped, Duration: 2 * time.Second, Judges: contract.JudgesRouter, Reason: ReasonPending},
	}
	if !reflect.DeepEqual(specs, want) {
		t.Errorf("specs:\n got %+v\nwant %+v", specs, want)
	}
	// Failed specs explain the unsuccessful suite: not an error of the run.
	if !reflect.DeepEqual(run, RunOutcome{}) {
		t.Errorf("run: %+v, want the zero outcome", run)
	}
}

func TestFromGinkgoTellsFilteredSpecsFromSpecsACutShortRunNeverReached(t *testing.T) {
	r := goodSuite()
	r.SuiteConfig.LabelFilter = "hsts || router"
	r.SuiteConfig.FocusStrings = []string{"HSTS", "Router serves"}
	// Left out by the label filter, by the focus, and matching both but
	// never reached (the run was interrupted).
	setSpec(&r, specDelegation, types.SpecStateSkipped, "")
	setSpec(&r, specBadHost, types.SpecStateSkipped, "")
	setSpec(&r, specHSTS, types.SpecStateSkipped, "")
	r.SpecialSuiteFailureReasons = []string{"Interrupted by User"}
	r.SuiteSucceeded = false
	specs, run := FromGinkgo(r)
	reasons := map[string]string{}
	for _, s := range specs {
		reasons[s.Name] = s.Reason
	}
	for name, want := range map[string]string{specDelegation: ReasonFilteredOut, specBadHost: ReasonFilteredOut, specHSTS: ReasonNeverStarted, specEdge: ""} {
		if reasons[name] != want {
			t.Errorf("%s: reason %q, want %q", name, reasons[name], want)
		}
	}
	want := RunOutcome{Error: true, Reason: "Interrupted by User", LabelFilter: "hsts || router", Focus: []string{"HSTS", "Router serves"}}
	if !reflect.DeepEqual(run, want) {
		t.Errorf("run:\n got %#v\nwant %#v", run, want)
	}
}

func TestFromGinkgoRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*types.Report)
		reason string
	}{
		{"a set-up that failed", func(r *types.Report) {
			r.SuiteSucceeded = false
			r.SpecReports[0].State = types.SpecStateFailed
			r.SpecReports[0].Failure = types.Failure{Message: "router pod never ready: CrashLoopBackOff\nlast log lines..."}
			// The other processes say the same, once.
			r.SpecReports = append(r.SpecReports, r.SpecReports[0])
		}, "set-up failed: router pod never ready: CrashLoopBackOff"},
		{"a timed-out suite", func(r *types.Report) {
			r.SuiteSucceeded = false
			r.SpecialSuiteFailureReasons = []string{"Suite Timeout Elapsed"}
		}, "Suite Timeout Elapsed"},
		{"a failed AfterSuite and an interrupt", func(r *types.Report) {
			r.SuiteSucceeded = false
			r.SpecReports = append(r.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeAfterSuite, State: types.SpecStateInterrupted,
				Failure: types.Failure{Message: "interrupted by user"}})
			r.SpecialSuiteFailureReasons = []string{"Interrupted by User"}
		}, "interrupted during tear-down; Interrupted by User"},
		{"an interrupted set-up (Ctrl-C), as each of four processes reports it", func(r *types.Report) {
			r.SuiteSucceeded = false
			for p := 1; p <= 4; p++ {
				node := types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateInterrupted, ParallelProcess: p}
				if p == 1 {
					node.Failure = types.Failure{Message: "Interrupted by User"}
				}
				r.SpecReports = append(r.SpecReports, node)
			}
			r.SpecialSuiteFailureReasons = []string{"Interrupted by User"}
		}, "interrupted during set-up; Interrupted by User"},
		{"a failed report node", func(r *types.Report) {
			r.SuiteSucceeded = false
			r.SpecReports = append(r.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeReportAfterSuite, State: types.SpecStateFailed,
				Failure: types.Failure{Message: "writing conformance.yaml: disk full"}})
		}, "reporting failed: writing conformance.yaml: disk full"},
		{"an aborted spec", func(r *types.Report) {
			r.SuiteSucceeded = false
			setSpec(r, specRevoked, types.SpecStateAborted, "the CRL server is gone")
		}, `aborted by spec client-tls/revoked-refused ("Client TLS refuses a revoked certificate"): the CRL server is gone`},
		{"an unexplained unsuccessful suite", func(r *types.Report) { r.SuiteSucceeded = false },
			"Ginkgo reports the suite unsuccessful, and no spec or suite node failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := goodSuite()
			tc.change(&r)
			_, run := FromGinkgo(r)
			if !run.Error || run.Reason != tc.reason {
				t.Errorf("run %+v, want error %q", run, tc.reason)
			}
		})
	}
}

// A spec's ID is the one ID label among its labels, wherever Ginkgo put
// it (the It's own labels, a container's); none when it carries none or
// several.
func TestFromGinkgoTakesTheIDFromTheLabels(t *testing.T) {
	inContainer := passed("HSTS per route", "sets the header", []string{"hsts", idLabel("hsts/header-set")})
	none := passed("HSTS per route", "says nothing of its ID", []string{"hsts"})
	none.LeafNodeLabels = withoutIDs(none.LeafNodeLabels)
	twice := passed("HSTS per route", "has two IDs", []string{"hsts"}, idLabel("hsts/one"), idLabel("hsts/other"))
	r := types.Report{SuiteSucceeded: true, SpecReports: types.SpecReports{
		passed("HSTS per route", "is a spec", []string{"hsts"}, platform, idLabel("hsts/a-spec")),
		inContainer, none, twice,
	}}
	specs, _ := FromGinkgo(r)
	got := map[string]contract.SpecID{}
	for _, s := range specs {
		got[s.Name] = s.ID
	}
	want := map[string]contract.SpecID{
		"HSTS per route is a spec":              "hsts/a-spec",
		"HSTS per route sets the header":        "hsts/header-set",
		"HSTS per route says nothing of its ID": "",
		"HSTS per route has two IDs":            "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("IDs:\n got %q\nwant %q", got, want)
	}
}

// report.json is what the verifier reads: the conversion must survive
// Ginkgo's own JSON.
func TestFromGinkgoOfGinkgoJSON(t *testing.T) {
	r := goodSuite()
	setSpec(&r, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	data, err := json.Marshal([]types.Report{r})
	if err != nil {
		t.Fatal(err)
	}
	var back []types.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	a, runA := FromGinkgo(r)
	b, runB := FromGinkgo(back[0])
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(runA, runB) {
		t.Errorf("after JSON:\n%+v %+v\nbefore:\n%+v %+v", b, runB, a, runA)
	}
}

// A set-up that failed on process 1 is named by its error, not by the
// assertion's description nor by the other processes' echoes of it.
func TestASetUpFailureIsNamedByItsError(t *testing.T) {
	failed := func(msg string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed, Failure: types.Failure{Message: msg}}
	}
	r := types.Report{SpecReports: types.SpecReports{
		failed("bring up the kind profile\nUnexpected error:\n    <*fmt.wrapError | 0x1f658c7ff620>: \n    install the router (bad:1): container router is CrashLoopBackOff: back-off 10s\n    pod x: phase Running\n"),
		failed("\x1b[1m\x1b[38;5;9mSynchronizedBeforeSuite failed on Ginkgo parallel process #1\x1b[0m\n  The first SynchronizedBeforeSuite function running on Ginkgo parallel process\n"),
	}}
	_, run := FromGinkgo(r)
	want := "set-up failed: bring up the kind profile: install the router (bad:1): container router is CrashLoopBackOff: back-off 10s"
	if !run.Error || run.Reason != want {
		t.Errorf("got %v %q, want %q", run.Error, run.Reason, want)
	}
}
