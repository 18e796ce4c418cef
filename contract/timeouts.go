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
	ClusterReady time.Duration `flag:"timeout-cluster-ready" key:"clusterReady" usage:"node, CoreDNS and router readiness"`
	// PodReady bounds a spec's pods becoming ready, and an
	// IngressController change rolling out. Default 2m.
	PodReady time.Duration `flag:"timeout-pod-ready" key:"podReady" usage:"a spec's pods becoming ready, an IngressController rollout"`
	// Converge bounds a request reaching its expected outcome after a
	// change (a route, a policy), and the API's answer to a change.
	// Default 30s.
	Converge time.Duration `flag:"timeout-converge" key:"converge" usage:"a request reaching its expected outcome"`
	// CRLRefresh bounds a CRL change reaching the router: upstream
	// downloads again 5 minutes after a failure (openshift/router
	// pkg/router/crl/crl.go, errorBackoffTime). Default 5m30s.
	CRLRefresh time.Duration `flag:"timeout-crl-refresh" key:"crlRefresh" usage:"a CRL change reaching the router (upstream retries a failed download after 5 minutes)"`
	// MountedConfigMap bounds a ConfigMap edit reaching the files of a
	// running pod that mounts it: the kubelet rewrites a ConfigMap volume
	// on its periodic pod sync (syncFrequency, 1m by default, plus its
	// cache's delay). Default 2m30s.
	MountedConfigMap time.Duration `flag:"timeout-mounted-configmap" key:"mountedConfigMap" usage:"a ConfigMap edit reaching the files a running pod mounts (the kubelet's sync period)"`
	// Poll is the interval between two attempts of a spec's wait.
	// Default 250ms.
	Poll time.Duration `flag:"poll-interval" key:"poll" usage:"the interval between two attempts of a wait"`
	// Consecutive answers in a row make convergence: one success may
	// come from a router that is still reloading. Default 3.
	Consecutive int `flag:"consecutive" key:"consecutive" usage:"answers in a row that make convergence"`
	// ProvisionPoll is the interval between two looks of the profile's
	// install and cluster waits (nodes Ready, CoreDNS, CRDs Established,
	// Deployments, the webhook answering). Default 500ms.
	ProvisionPoll time.Duration `flag:"timeout-provision-poll" key:"provisionPoll" usage:"the interval between two looks of the install and cluster waits"`
	// Request bounds one HTTP exchange of the suite's client (connect,
	// TLS, the whole answer). Default 10s.
	Request time.Duration `flag:"timeout-request" key:"request" usage:"one HTTP exchange of the suite's client"`
	// Dial bounds one TCP connection of the seal's checks: the one to a
	// decoy outside the cluster that must be refused, and its positive
	// control. Default 2s.
	Dial time.Duration `flag:"timeout-dial" key:"dial" usage:"one TCP connection of the seal's checks (the refused one and its positive control)"`
	// Diagnosis bounds the reads that explain a failed wait (pod
	// statuses, events, logs). Default 15s.
	Diagnosis time.Duration `flag:"timeout-diagnosis" key:"diagnosis" usage:"the reads that explain a failed wait"`
	// SuiteSetUp bounds the profile's bring-up: a cold kind profile
	// builds Kubernetes from source. Default 75m.
	SuiteSetUp time.Duration `flag:"timeout-suite-setup" key:"suiteSetUp" usage:"the profile's bring-up"`
	// SuiteTearDown bounds the profile's tear-down. Default 5m.
	SuiteTearDown time.Duration `flag:"timeout-suite-teardown" key:"suiteTearDown" usage:"the profile's tear-down"`
	// Run is Ginkgo's --timeout for the whole run: the set-up, every
	// spec at the parallelism the profile allows, the tear-down.
	// Default 85m.
	Run time.Duration `flag:"timeout-run" key:"run" usage:"the whole run (Ginkgo's --timeout; the run path passes it)"`
}

// DefaultTimeouts are the documented waits.
func DefaultTimeouts() Timeouts {
	return Timeouts{
		ClusterReady:     3 * time.Minute,
		PodReady:         2 * time.Minute,
		Converge:         30 * time.Second,
		CRLRefresh:       5*time.Minute + 30*time.Second,
		MountedConfigMap: 2*time.Minute + 30*time.Second,
		Poll:             250 * time.Millisecond,
		Consecutive:      3,
		ProvisionPoll:    500 * time.Millisecond,
		Request:          10 * time.Second,
		Dial:             2 * time.Second,
		Diagnosis:        15 * time.Second,
		SuiteSetUp:       75 * time.Minute,
		SuiteTearDown:    5 * time.Minute,
		Run:              85 * time.Minute,
	}
}

// CertificationTimeouts are the waits of a certification run: every field
// at its default.
func CertificationTimeouts() Timeouts { return DefaultTimeouts() }

// Diff names each field where t differs from want by its flag, as
// "-flag got (want)", in the table's order.
func (t Timeouts) Diff(want Timeouts) []string {
	var out []string
	got, w := reflect.ValueOf(t), reflect.ValueOf(want)
	for i := range got.NumField() {
		if g, x := got.Field(i).Interface(), w.Field(i).Interface(); g != x {
			out = append(out, fmt.Sprintf("-%s %v (want %v)", got.Type().Field(i).Tag.Get("flag"), g, x))
		}
	}
	return out
}

// TimeoutField is one field of the table as the suite's flags and -config
// file name it (the struct tags).
type TimeoutField struct {
	Flag, Key, Usage string
	// Duration or Count points into the Timeouts it was read from.
	Duration *time.Duration
	Count    *int
}

// Fields lists t's fields, in order, pointing into t.
func (t *Timeouts) Fields() []TimeoutField {
	v := reflect.ValueOf(t).Elem()
	out := make([]TimeoutField, v.NumField())
	for i := range v.NumField() {
		tag := v.Type().Field(i).Tag
		out[i] = TimeoutField{Flag: tag.Get("flag"), Key: tag.Get("key"), Usage: tag.Get("usage")}
		switch p := v.Field(i).Addr().Interface().(type) {
		case *time.Duration:
			out[i].Duration = p
		case *int:
			out[i].Count = p
		}
	}
	return out
}
