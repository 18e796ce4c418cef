package profile

import (
	"fmt"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/e2e/framework"
)

// readShardPorts reads back where kind mapped the shard node ports
// (kind.SuitePorts): two pairs per parallel process.
func readShardPorts(hostPort func(nodePort int32) (string, error)) ([]framework.ShardPorts, error) {
	var out []framework.ShardPorts
	for i := int32(0); i < kind.ShardPairs; i++ {
		p := framework.ShardPorts{HTTPPort: kind.ShardHTTPBase + i, HTTPSPort: kind.ShardHTTPSBase + i, StatsPort: kind.ShardStatsBase + i}
		var err error
		if p.HTTPAddr, err = hostPort(p.HTTPPort); err == nil {
			p.HTTPSAddr, err = hostPort(p.HTTPSPort)
		}
		if err != nil {
			return nil, fmt.Errorf("shard ports (a cluster made before they existed? make cluster-down, then run again): %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}
