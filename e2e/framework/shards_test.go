package framework

import (
	"strings"
	"testing"
)

func TestMoreProcessesThanShardPortsAreRefused(t *testing.T) {
	kind := New(Options{}, Capabilities{Profile: KindProfile, OwnIngressControllers: true, MaxParallel: 4})
	if err := kind.CheckParallelism(4); err != nil {
		t.Errorf("4 processes on the kind profile: %v", err)
	}
	err := kind.CheckParallelism(5)
	if err == nil || !strings.Contains(err.Error(), "run with PROCS=4 or fewer") {
		t.Errorf("5 processes on the kind profile: want the PROCS advice, got %v", err)
	}
	// A profile without own IngressControllers runs those specs Serial on
	// the default IngressController: any parallelism will do.
	if err := New(Options{}, Capabilities{Profile: ExistingProfile}).CheckParallelism(16); err != nil {
		t.Errorf("existing profile: %v", err)
	}
}
