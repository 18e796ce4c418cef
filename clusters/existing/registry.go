package existing

import (
	"context"
	"fmt"
	"strings"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/images"
)

// registryPort is where the registry listens in its container.
const registryPort = "5000"

// registry is the lab's registry container: the test machine pushes to
// host (127.0.0.1:<port>, go-containerregistry speaks plain HTTP to a
// loopback registry), the node pulls from endpoint on the cluster's own
// network.
type registry struct {
	container string
	host      string
	endpoint  string
}

// startRegistry (re)starts the registry container on the network,
// published on 127.0.0.1 only.
func startRegistry(ctx context.Context, o Options, network string) (*registry, error) {
	name := o.Name + "-registry"
	image, err := images.Build(ctx, o.RepoRoot, images.Registry)
	if err != nil {
		return nil, err
	}
	// A registry left by an interrupted run holds nothing this run needs.
	if err := stopRegistry(ctx, name); err != nil {
		return nil, err
	}
	if _, err := kind.Docker(ctx, "run", "-d", "--name", name, "--network", network,
		"--label", "router-conformance=true", "-p", kind.Loopback+"::"+registryPort, image); err != nil {
		return nil, fmt.Errorf("start the registry container: %w", err)
	}
	ip, err := kind.Docker(ctx, "inspect", "-f", fmt.Sprintf("{{(index .NetworkSettings.Networks %q).IPAddress}}", network), name)
	if err != nil || ip == "" {
		return nil, fmt.Errorf("registry container %s has no address on %s: %v", name, network, err)
	}
	published, err := kind.Docker(ctx, "port", name, registryPort+"/tcp")
	if err != nil {
		return nil, fmt.Errorf("registry container %s: port %s is not published: %w", name, registryPort, err)
	}
	host, _, _ := strings.Cut(published, "\n")
	if !strings.HasPrefix(host, kind.Loopback+":") {
		return nil, fmt.Errorf("registry container %s is published on %q, not on %s", name, published, kind.Loopback)
	}
	return &registry{container: name, host: host, endpoint: "http://" + ip + ":" + registryPort}, nil
}

// stopRegistry removes the registry container if there is one.
func stopRegistry(ctx context.Context, name string) error {
	if _, err := kind.Docker(ctx, "container", "inspect", name); err != nil {
		return nil
	}
	if _, err := kind.Docker(ctx, "rm", "-f", name); err != nil {
		return fmt.Errorf("remove the registry container: %w", err)
	}
	return nil
}
