package framework

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"

	"github.com/router-conformance/suite/clusters/kind"
)

// ShardLabel labels the namespaces a shard of OwnIngressController serves.
const ShardLabel = "router-conformance/shard"

// Shard ports: each parallel process owns one pair of node ports for an
// IngressController of its own, mapped to 127.0.0.1 when the kind profile
// creates the cluster (a shard publishes with the HostNetwork strategy,
// so its router binds them on the node). A process runs one spec, or one
// Ordered container, at a time, so one pair is enough; more processes
// than pairs run the specs on the default IngressController instead.
const (
	shardPairs     = 4
	shardHTTPBase  = 10080
	shardHTTPSBase = 10443
	// The stats port is bound on the node too, but only the kubelet's
	// probes use it: not mapped.
	shardStatsBase = 11936
)

// ShardPorts are one pair of node ports and the host addresses they are
// mapped to.
type ShardPorts struct {
	HTTPPort, HTTPSPort, StatsPort int32
	HTTPAddr, HTTPSAddr            string
}

// shardPortMappings are the node ports the kind profile maps for shards.
func shardPortMappings() []kind.PortMapping {
	var out []kind.PortMapping
	for i := int32(0); i < shardPairs; i++ {
		out = append(out, kind.PortMapping{NodePort: shardHTTPBase + i}, kind.PortMapping{NodePort: shardHTTPSBase + i})
	}
	return out
}

// readShardPorts reads back where kind mapped the shard node ports.
func readShardPorts(hostPort func(nodePort int32) (string, error)) ([]ShardPorts, error) {
	var out []ShardPorts
	for i := int32(0); i < shardPairs; i++ {
		p := ShardPorts{HTTPPort: shardHTTPBase + i, HTTPSPort: shardHTTPSBase + i, StatsPort: shardStatsBase + i}
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
