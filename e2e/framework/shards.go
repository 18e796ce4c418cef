package framework

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
)

// ShardLabel labels the namespaces a shard of OwnIngressController serves.
const ShardLabel = "router-conformance/shard"

// ShardPorts are one pair of node ports a spec's own IngressController
// publishes on, and the host addresses they are mapped to. The profile
// gives each parallel process one pair: a process runs one spec, or one
// Ordered container, at a time.
type ShardPorts struct {
	HTTPPort, HTTPSPort, StatsPort int32
	HTTPAddr, HTTPSAddr            string
}

// shardPorts are this process's pair, if the profile has one for it.
func (f *Framework) shardPorts() (ShardPorts, bool) {
	i := GinkgoParallelProcess() - 1
	if f.Env == nil || i >= len(f.Shards) {
		return ShardPorts{}, false
	}
	return f.Shards[i], true
}

// CheckParallelism refuses more parallel processes than the profile has
// ports for: a process without a pair would fall back to the default
// IngressController, and change it while other processes' specs use it.
func (f *Framework) CheckParallelism(processes int) error {
	if max := f.Caps.MaxParallel; max > 0 && processes > max {
		return fmt.Errorf("%d parallel processes, but the %s profile maps IngressController ports for %d: run with PROCS=%d or fewer (ginkgo --procs)", processes, f.Caps.Profile, max, max)
	}
	return nil
}
