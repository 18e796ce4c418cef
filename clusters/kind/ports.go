package kind

// Shard node ports: two pairs (each with a stats port) for each parallel
// process of the suite, for an IngressController of its own that
// publishes with the HostNetwork strategy. A process's shards alternate
// between its two pairs, so a spec's new shard never waits for the
// previous spec's router to stop and free its ports. The pairs are
// mapped to 127.0.0.1 when the cluster is created, so every way of
// creating it maps them.
const (
	// MaxProcesses is the most parallel processes the pairs serve.
	MaxProcesses   = 4
	ShardPairs     = 2 * MaxProcesses
	ShardHTTPBase  = 10080
	ShardHTTPSBase = 10443
	// The stats ports are bound on the node too, but only the kubelet's
	// probes use them: not mapped.
	ShardStatsBase = 11936
)

// SuitePorts are the node ports a cluster of the suite maps to
// 127.0.0.1: 80 and 443 (on the given host ports, 0 for free ones), the
// smoke check's, and the shard pairs.
func SuitePorts(httpHostPort, httpsHostPort int32) []PortMapping {
	ports := []PortMapping{{NodePort: 80, HostPort: httpHostPort}, {NodePort: 443, HostPort: httpsHostPort}, {NodePort: SmokeNodePort}}
	for i := int32(0); i < ShardPairs; i++ {
		ports = append(ports, PortMapping{NodePort: ShardHTTPBase + i}, PortMapping{NodePort: ShardHTTPSBase + i})
	}
	return ports
}
