package framework

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
)

// ShardLabel labels the namespaces a shard of OwnIngressController serves.
const ShardLabel = "router-conformance/shard"

// ShardPorts are one pair of node ports a spec's own IngressController
// publishes on, and the host addresses they are mapped to. The profile
// gives each parallel process one pair or two: a process runs one spec,
// or one Ordered container, at a time.
type ShardPorts struct {
	HTTPPort, HTTPSPort, StatsPort int32
	HTTPAddr, HTTPSAddr            string
}

// nextShard is the name of this process's next shard and its pair, if
// the profile has one for it. Process i has the i-th pair; where the
// profile has two per process (or publishes shards without ports, inside
// the cluster), its shards alternate between the i-th and the
// (processes+i)-th, so a new shard never waits for the previous spec's
// router to stop and free its ports and name. A shard is named after its
// pair, and labels the namespaces it serves with that name.
func (f *Framework) nextShard() (string, ShardPorts, bool) {
	suite, _ := GinkgoConfiguration()
	processes := max(1, suite.ParallelTotal)
	var shards []ShardPorts
	private := false
	if f.Env != nil {
		shards, private = f.Shards, f.PrivateShards
	}
	i := GinkgoParallelProcess() - 1
	if alternate := len(shards) >= 2*processes || (len(shards) == 0 && private); alternate && f.shardTurn%2 == 1 {
		i += processes
	}
	f.shardTurn++
	name := fmt.Sprintf("shard-%d", i+1)
	if i >= len(shards) {
		return name, ShardPorts{}, false
	}
	return name, shards[i], true
}

// CheckParallelism refuses more parallel processes than the profile has
// ports for: a process without a pair would fall back to the default
// IngressController, and change it while other processes' specs use it.
// The run path checks it before anything is built, the suite again with
// Ginkgo's own count.
func (c Capabilities) CheckParallelism(processes int) error {
	if max := c.MaxParallel; max > 0 && processes > max {
		return fmt.Errorf("%d parallel processes, but the %s profile maps IngressController ports for %d: run with PROCS=%d or fewer (ginkgo --procs)", processes, c.Profile, max, max)
	}
	return nil
}
