package framework

import (
	"strings"
	"testing"
)

func TestMoreProcessesThanShardPortsAreRefused(t *testing.T) {
	kind := New(Options{Profile: KindProfile})
	if err := kind.CheckParallelism(shardPairs); err != nil {
		t.Errorf("%d processes on the kind profile: %v", shardPairs, err)
	}
	err := kind.CheckParallelism(shardPairs + 1)
	if err == nil || !strings.Contains(err.Error(), "run with PROCS=4 or fewer") {
		t.Errorf("%d processes on the kind profile: want the PROCS advice, got %v", shardPairs+1, err)
	}
	// The existing profile runs those specs Serial on the default
	// IngressController: any parallelism will do.
	if err := New(Options{Profile: ExistingProfile}).CheckParallelism(16); err != nil {
		t.Errorf("existing profile: %v", err)
	}
}
