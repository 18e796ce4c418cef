package contract

import (
	"fmt"
	"reflect"
	"time"
)

// Timeouts are every wait of the suite, in one table: the specs', the
// profiles' install and cluster waits, the HTTP client's, the suite's
// set-up and tear-down, Ginkgo's timeout for the whole run. No code in
// e2e/, platform/install or clusters/kind writes a duration of its own (a
// test greps for one). They are part of what the suite and a router agree
// on: how long a router has to converge, how often it is asked, how many
// answers in a row count. Each field's comment gives its default, which
// is also its certification value: a certification run waits exactly
// CertificationTimeouts, no longer (a flapping router retried until it
// passes) and no shorter.
type Timeouts struct {
	// ClusterReady bounds the cluster's and the router's readiness: node,
	// CoreDNS, the platform's Deployments, the default IngressController.
	// Default 3m.
	ClusterReady time.Duration
	// PodReady bounds a spec's pods becoming ready, and an
	// IngressController change rolling out. Default 2m.
	PodReady time.Duration
	// Converge bounds a request reaching its expected outcome after a
	// change (a route, a policy), and the API's answer to a change.
	// Default 30s.
	Converge time.Duration
	// CRLRefresh bounds a CRL change reaching the router: upstream
	// downloads again 5 minutes after a failure (openshift/router
	// pkg/router/crl/crl.go, errorBackoffTime). Default 5m30s.
	CRLRefresh time.Duration
	// Poll is the interval between two attempts of a spec's wait.
	// Default 250ms.
	Poll time.Duration
	// Consecutive answers in a row make convergence: one success may
	// come from a router that is still reloading. Default 3.
	Consecutive int
	// ProvisionPoll is the interval between two looks of the profile's
	// install and cluster waits (nodes Ready, CoreDNS, CRDs Established,
	// Deployments, the webhook answering). Default 500ms.
	ProvisionPoll time.Duration
	// Request bounds one HTTP exchange of the suite's client (connect,
	// TLS, the whole answer). Default 10s.
	Request time.Duration
	// Dial bounds one TCP connection the seal's checks expect to fail
	// (a decoy outside the cluster). Default 2s.
	Dial time.Duration
	// Diagnosis bounds the reads that explain a failed wait (pod
	// statuses, events, logs). Default 15s.
	Diagnosis time.Duration
	// SuiteSetUp bounds the profile's bring-up: a cold kind profile
	// builds Kubernetes from source. Default 75m.
	SuiteSetUp time.Duration
	// SuiteTearDown bounds the profile's tear-down. Default 5m.
	SuiteTearDown time.Duration
	// Run is Ginkgo's --timeout for the whole run: the set-up, every
	// spec at the parallelism the profile allows, the tear-down.
	// Default 85m.
	Run time.Duration
}

// DefaultTimeouts are the documented waits.
func DefaultTimeouts() Timeouts {
	return Timeouts{
		ClusterReady:  3 * time.Minute,
		PodReady:      2 * time.Minute,
		Converge:      30 * time.Second,
		CRLRefresh:    5*time.Minute + 30*time.Second,
		Poll:          250 * time.Millisecond,
		Consecutive:   3,
		ProvisionPoll: 500 * time.Millisecond,
		Request:       10 * time.Second,
		Dial:          2 * time.Second,
		Diagnosis:     15 * time.Second,
		SuiteSetUp:    75 * time.Minute,
		SuiteTearDown: 5 * time.Minute,
		Run:           85 * time.Minute,
	}
}

// CertificationTimeouts are the waits of a certification run: every field
// at its default.
func CertificationTimeouts() Timeouts { return DefaultTimeouts() }

// Diff names each field where t differs from want, as "Field: got
// (want)", in the table's order.
func (t Timeouts) Diff(want Timeouts) []string {
	var out []string
	got, w := reflect.ValueOf(t), reflect.ValueOf(want)
	for i := range got.NumField() {
		if g, x := got.Field(i).Interface(), w.Field(i).Interface(); g != x {
			out = append(out, fmt.Sprintf("%s: %v (want %v)", got.Type().Field(i).Name, g, x))
		}
	}
	return out
}
