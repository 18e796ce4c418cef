package framework

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"

	"github.com/router-conformance/suite/clusters/kind"
)

// ShardLabel labels the namespaces a shard of OwnIngressController serves.
const ShardLabel = "router-conformance/shard"

// Shard ports: each parallel process owns one pair of node ports for an
// IngressController of its own, which the kind profile maps to 127.0.0.1
// (kind.SuitePorts). A process runs one spec, or one Ordered container,
// at a time, so one pair is enough; CheckParallelism refuses more
// processes than pairs.
const shardPairs = kind.ShardPairs

// ShardPorts are one pair of node ports and the host addresses they are
// mapped to.
type ShardPorts struct {
	HTTPPort, HTTPSPort, StatsPort int32
	HTTPAddr, HTTPSAddr            string
}

// readShardPorts reads back where kind mapped the shard node ports.
func readShardPorts(hostPort func(nodePort int32) (string, error)) ([]ShardPorts, error) {
	var out []ShardPorts
	for i := int32(0); i < shardPairs; i++ {
		p := ShardPorts{HTTPPort: kind.ShardHTTPBase + i, HTTPSPort: kind.ShardHTTPSBase + i, StatsPort: kind.ShardStatsBase + i}
		var err error
		if p.HTTPAddr, err = hostPort(p.HTTPPort); err != nil {
			return nil, fmt.Errorf("shard ports (a cluster made before they existed? make cluster-down, then run again): %w", err)
		}
		if p.HTTPSAddr, err = hostPort(p.HTTPSPort); err != nil {
			return nil, fmt.Errorf("shard ports (a cluster made before they existed? make cluster-down, then run again): %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// shardPorts are this process's pair, if the profile has one for it.
func (f *Framework) shardPorts() (ShardPorts, bool) {
	i := GinkgoParallelProcess() - 1
	if i >= len(f.Shards) {
		return ShardPorts{}, false
	}
	return f.Shards[i], true
}

// CheckParallelism refuses more parallel processes than the kind profile
// has shard port pairs: a process without a pair would fall back to the
// default IngressController, and change it while other processes' specs
// use it.
func (f *Framework) CheckParallelism(processes int) error {
	if f.Opts.Profile == KindProfile && processes > shardPairs {
		return fmt.Errorf("%d parallel processes, but the kind profile maps shard ports for %d: run with PROCS=%d or fewer (ginkgo --procs)", processes, shardPairs, shardPairs)
	}
	return nil
}
