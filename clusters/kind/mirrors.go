package kind

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"sigs.k8s.io/kind/pkg/cluster/nodes"
	"sigs.k8s.io/kind/pkg/cluster/nodeutils"
)

// Mirror tells the nodes' containerd where a registry really is: images
// named Host/... (what the test machine pushed to, e.g. 127.0.0.1:5001)
// are pulled from Endpoint (the registry's address on the cluster's own
// network), as kind's local-registry recipe does.
type Mirror struct {
	Host     string
	Endpoint string
}

// certsDir is where containerd looks for per-registry hosts.toml files
// once the registry config_path points there.
const certsDir = "/etc/containerd/certs.d"

// registryConfigPatch turns on containerd's per-registry host files; the
// node image's containerd config (kind's) leaves config_path unset.
const registryConfigPatch = `[plugins."io.containerd.grpc.v1.cri".registry]
  config_path = "` + certsDir + `"
`

func (m Mirror) validate() error {
	if m.Host == "" || strings.ContainsAny(m.Host, "/ ") {
		return fmt.Errorf("registry mirror: host %q must be a registry host[:port]", m.Host)
	}
	u, err := url.Parse(m.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("registry mirror for %s: endpoint %q must be an http(s) URL", m.Host, m.Endpoint)
	}
	return nil
}

// hostsTOML is containerd's hosts file for the mirror: pull and resolve
// from the endpoint; it serves plain HTTP on a sealed network.
func (m Mirror) hostsTOML() string {
	return fmt.Sprintf("server = %q\n\n[host.%q]\n  capabilities = [\"pull\", \"resolve\"]\n", m.Endpoint, m.Endpoint)
}

// writeMirrors writes every mirror's hosts.toml into the node; containerd
// reads them at each pull, so no restart is needed.
func writeMirrors(node nodes.Node, mirrors []Mirror) error {
	for _, m := range mirrors {
		if err := nodeutils.WriteFile(node, path.Join(certsDir, m.Host, "hosts.toml"), m.hostsTOML()); err != nil {
			return fmt.Errorf("tell %s's containerd about registry %s: %w", node.String(), m.Host, err)
		}
	}
	return nil
}
