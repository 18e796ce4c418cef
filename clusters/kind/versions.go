// Package kind is the hermetic kind profile's cluster: a one-node kind
// cluster made from the node image built offline (nodeimage/), created
// through kind's Go library, sealed against egress before any pod starts,
// with its own CoreDNS that answers cluster names only.
package kind

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed versions.env
var versionsEnv string

// Versions are the pinned versions and subnets of versions.env.
type Versions struct {
	Kind, Kubernetes, CoreDNS string
	PodSubnet, ServiceSubnet  string
	// HAProxy is the reference router's HAProxy (Debian's version string,
	// as `haproxy -v` prints it).
	HAProxy string
}

// PinnedVersions parses the embedded versions.env.
func PinnedVersions() Versions {
	env := map[string]string{}
	for _, line := range strings.Split(versionsEnv, "\n") {
		line = strings.TrimSpace(line)
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			env[k] = v
		}
	}
	v := Versions{
		Kind: env["KIND_VERSION"], Kubernetes: env["K8S_VERSION"], CoreDNS: env["COREDNS_VERSION"],
		PodSubnet: env["POD_SUBNET"], ServiceSubnet: env["SERVICE_SUBNET"], HAProxy: env["HAPROXY_VERSION"],
	}
	for name, value := range map[string]string{"KIND_VERSION": v.Kind, "K8S_VERSION": v.Kubernetes, "COREDNS_VERSION": v.CoreDNS, "POD_SUBNET": v.PodSubnet, "SERVICE_SUBNET": v.ServiceSubnet, "HAPROXY_VERSION": v.HAProxy} {
		if value == "" {
			panic(fmt.Sprintf("clusters/kind/versions.env has no %s", name))
		}
	}
	return v
}
