// Package existing makes a cluster the way a certification lab has one,
// for the existing profile's proof (make e2e-existing): a kind cluster of
// the suite's node image with nothing of the suite's install path, a
// registry container beside it on the cluster's sealed network (kind's
// local-registry recipe), the platform and router images pushed there, and
// the platform and router applied from plain manifests with kubectl, as
// an operator applies them. The suite then meets it only through
// -profile existing.
//
// With worker nodes (Options.Workers, make's LAB_WORKERS, 2 by default)
// the lab has a vendor cluster's shape: the default IngressController
// runs several router replicas (spec.replicas, 2 by default: upstream's
// DetermineReplicas on a highly available topology), one per worker
// (upstream's node placement on node-role.kubernetes.io/worker and its
// pod anti-affinity), each bound to its worker's ports 80 and 443, and a
// TCP load balancer in front (loadbalancer.go) is the only way in from
// the host. The load balancer also fronts the shard node ports (one pair
// per parallel process, the kind profile's numbers) over every node: with
// -shard-addrs the existing profile gives a spec an IngressController of
// its own there, as the kind profile does. Without workers it is the
// one-node lab of before: the node's own ports, the shard pairs too,
// mapped to 127.0.0.1.
package existing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/platform/install"
)

// DefaultName keeps the lab apart from the suite's own cluster, so both
// can exist on one machine.
const DefaultName = "router-conformance-existing"

// Options of a lab cluster.
type Options struct {
	// Name of the kind cluster; its registry container is <Name>-registry.
	Name     string
	RepoRoot string
	// RouterImage is a local Docker image of the router to install; ""
	// builds the reference router.
	RouterImage string
	// ManifestsDir receives the rendered manifests that are applied.
	ManifestsDir string
	// Kubeconfig is where the cluster's kubeconfig is written.
	Kubeconfig   string
	ReadyTimeout time.Duration
	Logf         func(format string, args ...any)
	// Workers is the number of worker nodes; with any, the routers run
	// there behind the lab's load balancer. 0: one node, no load
	// balancer.
	Workers int
	// Replicas of the default IngressController (spec.replicas) on a lab
	// with workers; 0: 2, or 1 with a single worker.
	Replicas int
}

// Lab is what the suite is told of the cluster: the existing profile's
// flags.
type Lab struct {
	Kubeconfig string
	HTTPAddr   string
	HTTPSAddr  string
	Domain     string
	// Registry is where the test machine pushes (127.0.0.1:<port>); the
	// node pulls the same names through its containerd mirror.
	Registry string
	// Router is the router image as deployed (by digest).
	Router string
	// Nodes are the cluster's nodes; Replicas the default
	// IngressController's router replicas; LoadBalancer the nodes'
	// addresses the load balancer balances over (none without workers).
	Nodes        []string
	Replicas     int
	LoadBalancer []string
	// Shards are the shard node port pairs and their addresses from the
	// host (the load balancer's shard frontends, or with no workers the
	// node's own ports): the existing profile's -shard-addrs.
	Shards []Shard

	cluster *kind.Cluster
}

// LoadImages copies local images into the lab's node, as a lab that
// preloads its nodes has them (the in-cluster run's suite and fixture
// images): the pods that use them pull nothing.
func (l *Lab) LoadImages(ctx context.Context, tags ...string) error {
	if l.cluster == nil {
		return errors.New("existing: LoadImages on a lab Up did not make")
	}
	return l.cluster.LoadImages(ctx, tags...)
}

// timeouts are the suite's, with the lab's readiness bound.
func (o *Options) timeouts() contract.Timeouts {
	t := contract.DefaultTimeouts()
	t.ClusterReady = o.ReadyTimeout
	return t
}

func (o *Options) defaults() error {
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.RepoRoot == "" {
		return errors.New("existing: Options.RepoRoot is not set")
	}
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return err
	}
	o.RepoRoot = root
	if o.ManifestsDir == "" {
		o.ManifestsDir = filepath.Join(root, ".cache", o.Name+"-manifests")
	}
	if o.Kubeconfig == "" {
		o.Kubeconfig = filepath.Join(root, ".cache", o.Name+".kubeconfig")
	}
	if o.ReadyTimeout == 0 {
		o.ReadyTimeout = contract.DefaultTimeouts().ClusterReady
	}
	if o.Logf == nil {
		o.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	}
	if o.Workers < 0 || o.Replicas < 0 {
		return fmt.Errorf("existing: %d workers, %d replicas", o.Workers, o.Replicas)
	}
	if o.Workers > 0 && o.Replicas == 0 {
		o.Replicas = min(2, o.Workers)
	}
	if o.Replicas > o.Workers && o.Workers > 0 {
		// One router per worker: its ports, and the anti-affinity.
		return fmt.Errorf("existing: %d router replicas on %d workers: each replica needs a worker of its own", o.Replicas, o.Workers)
	}
	return nil
}

// Up builds what is missing, starts the registry and the cluster, pushes
// the platform images, renders the manifests and applies them with the
// node's kubectl, and waits until the router serves. On an error the
// caller decides whether to keep what was made (Down removes it).
func Up(ctx context.Context, o Options) (*Lab, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	if err := kind.PrepareDocker(ctx, o.RepoRoot, o.Logf); err != nil {
		return nil, err
	}
	nodeImage, err := kind.BuildNodeImage(ctx, o.RepoRoot)
	if err != nil {
		return nil, err
	}
	platformImages, err := buildPlatformImages(ctx, o)
	if err != nil {
		return nil, err
	}
	// The seal goes on before the registry, the first container on the
	// network, starts.
	network, err := kind.EnsureNetwork(ctx, o.Name+"-net", nodeImage)
	if err != nil {
		return nil, err
	}
	if err := network.Seal(ctx); err != nil {
		return nil, err
	}
	reg, err := startRegistry(ctx, o, network.Name)
	if err != nil {
		return nil, err
	}
	o.Logf("registry %s on network %s (%s), published on %s", reg.container, network.Name, reg.endpoint, reg.host)
	// Only the routers' ports, and only on a one-node lab: with workers
	// the load balancer is the way in and no node is published.
	var ports []kind.PortMapping
	if o.Workers == 0 {
		ports = []kind.PortMapping{{NodePort: 80}, {NodePort: 443}}
		for _, s := range shardPorts() {
			ports = append(ports, kind.PortMapping{NodePort: s.HTTPPort}, kind.PortMapping{NodePort: s.HTTPSPort})
		}
	}
	c, err := kind.Up(ctx, kind.Options{
		Name: o.Name, RepoRoot: o.RepoRoot, NodeImage: nodeImage, Kubeconfig: o.Kubeconfig,
		ReplaceStale: true, Timeouts: o.timeouts(), Logf: o.Logf,
		Ports: ports, Workers: o.Workers,
		Mirrors: []kind.Mirror{{Host: reg.host, Endpoint: reg.endpoint}},
	})
	if err != nil {
		return nil, err
	}
	lab := &Lab{Kubeconfig: c.Kubeconfig, Domain: install.DefaultDomain, Registry: reg.host, Replicas: max(1, o.Replicas), cluster: c}
	pushed := install.Images{}
	for _, p := range []struct {
		local string
		ref   *string
	}{{platformImages.Router, &pushed.Router}, {platformImages.Admission, &pushed.Admission}, {platformImages.Reconciler, &pushed.Reconciler}, {platformImages.Syslog, &pushed.Syslog}} {
		img, err := images.PushFromDocker(ctx, p.local, reg.host+"/platform")
		if err != nil {
			return lab, err
		}
		o.Logf("pushed %s as %s", p.local, img.Remote)
		*p.ref = img.Remote
	}
	lab.Router = pushed.Router
	files, err := render(ctx, o, pushed)
	if err != nil {
		return lab, err
	}
	if err := applyManifests(ctx, c.NodeName(), files, o.Logf); err != nil {
		return lab, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		return lab, err
	}
	if err := install.WaitReady(ctx, cfg, install.Options{Domain: lab.Domain, Timeouts: o.timeouts()}); err != nil {
		return lab, err
	}
	workers, err := c.WorkerNames()
	if err != nil {
		return lab, err
	}
	lab.Nodes = append([]string{c.NodeName()}, workers...)
	if o.Workers == 0 {
		if lab.HTTPAddr, err = c.HostPort(ctx, 80); err != nil {
			return lab, err
		}
		if lab.HTTPSAddr, err = c.HostPort(ctx, 443); err != nil {
			return lab, err
		}
		for _, s := range shardPorts() {
			if s.HTTPAddr, err = c.HostPort(ctx, s.HTTPPort); err != nil {
				return lab, err
			}
			if s.HTTPSAddr, err = c.HostPort(ctx, s.HTTPSPort); err != nil {
				return lab, err
			}
			lab.Shards = append(lab.Shards, s)
		}
		return lab, nil
	}
	// The cloud's load balancer sends to every node of the pool; its
	// health check keeps the ones without a router out of rotation. The
	// default routers' pool is the workers (their node placement); a
	// shard's is every node, as a shard has no node placement of its own.
	backends, err := nodeAddrs(ctx, network.Name, workers)
	if err != nil {
		return lab, err
	}
	all, err := nodeAddrs(ctx, network.Name, lab.Nodes)
	if err != nil {
		return lab, err
	}
	lb, err := startLoadBalancer(ctx, o, network.Name, backends, all)
	if err != nil {
		return lab, err
	}
	lab.HTTPAddr, lab.HTTPSAddr, lab.LoadBalancer, lab.Shards = lb.HTTPAddr, lb.HTTPSAddr, lb.Backends, lb.Shards
	o.Logf("load balancer %s: %s and %s, round robin over %s; shard frontends %s over %s", lb.container, lb.HTTPAddr, lb.HTTPSAddr, strings.Join(backends, " "), ShardAddrs(lb.Shards), strings.Join(all, " "))
	if err := waitServed(ctx, lab, o.timeouts()); err != nil {
		return lab, err
	}
	return lab, nil
}

// buildPlatformImages builds (or finds cached) the router unless one is
// given, the route admission webhook and the IngressController
// reconciler and its access-log sidecar: local tags.
func buildPlatformImages(ctx context.Context, o Options) (install.Images, error) {
	var out install.Images
	out.Router = o.RouterImage
	if out.Router == "" {
		tag, err := images.Build(ctx, o.RepoRoot, images.ReferenceRouter)
		if err != nil {
			return out, err
		}
		out.Router = tag
	} else if _, err := kind.Docker(ctx, "image", "inspect", out.Router); err != nil {
		return out, fmt.Errorf("router image %s is not in the local Docker engine (it is never pulled): build or load it first", out.Router)
	}
	for _, s := range images.Components {
		var dst *string
		switch s.Name {
		case "route-admission":
			dst = &out.Admission
		case "ingress-reconciler":
			dst = &out.Reconciler
		case "syslog":
			dst = &out.Syslog
		default:
			continue
		}
		tag, err := images.Build(ctx, o.RepoRoot, s)
		if err != nil {
			return out, err
		}
		*dst = tag
	}
	return out, nil
}

// render writes the manifests an operator would apply: the pushed images
// by digest, pulled from the registry (IfNotPresent), every certificate
// minted fresh.
func render(ctx context.Context, o Options, imgs install.Images) ([]string, error) {
	crds, objs, err := install.Objects(ctx, nil, install.Options{
		RepoRoot: o.RepoRoot, Images: imgs, Domain: install.DefaultDomain, PullPolicy: "IfNotPresent",
	})
	if err != nil {
		return nil, err
	}
	if o.Workers > 0 {
		if err := placeRouters(objs, int32(o.Replicas)); err != nil {
			return nil, err
		}
	}
	if err := os.RemoveAll(o.ManifestsDir); err != nil {
		return nil, err
	}
	files, err := install.WriteManifests(o.ManifestsDir, crds, objs)
	if err != nil {
		return nil, err
	}
	o.Logf("manifests: %s", strings.Join(files, " "))
	return files, nil
}

// applyManifests runs kubectl as an operator does (the node's own kubectl
// and admin kubeconfig: the test machine needs none): the CRDs, a wait
// until they are Established, then the rest.
func applyManifests(ctx context.Context, node string, files []string, logf func(string, ...any)) error {
	kubectl := func(stdin string, args ...string) error {
		dockerArgs := append([]string{"exec", "-i", node, "kubectl", "--kubeconfig=/etc/kubernetes/admin.conf"}, args...)
		out, err := kind.DockerStdin(ctx, strings.NewReader(stdin), dockerArgs...)
		if err != nil {
			return fmt.Errorf("kubectl %s: %w", strings.Join(args, " "), err)
		}
		logf("kubectl %s\n%s", strings.Join(args, " "), out)
		return nil
	}
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := kubectl(string(data), "apply", "-f", "-"); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		if i == 0 {
			if err := kubectl("", "wait", "--for=condition=Established", "crd", "--all", "--timeout=2m"); err != nil {
				return err
			}
		}
	}
	return nil
}

// Down removes the cluster, its registry, its network and seal, whether
// or not this process made them.
func Down(ctx context.Context, o Options) error {
	if err := o.defaults(); err != nil {
		return err
	}
	if err := stopContainer(ctx, lbName(o.Name)); err != nil {
		return err
	}
	if err := stopRegistry(ctx, o.Name+"-registry"); err != nil {
		return err
	}
	return kind.Delete(ctx, kind.Options{Name: o.Name, RepoRoot: o.RepoRoot, Kubeconfig: o.Kubeconfig})
}

// WriteEnv writes the lab as shell assignments (make sources them);
// SHARD_ADDRS is the existing profile's -shard-addrs.
func (l *Lab) WriteEnv(path string) error {
	env := fmt.Sprintf("KUBECONFIG=%s\nHTTP_ADDR=%s\nHTTPS_ADDR=%s\nDOMAIN=%s\nREGISTRY=%s\nROUTER=%s\nNODES='%s'\nREPLICAS=%d\nLOAD_BALANCER='%s'\nSHARD_ADDRS='%s'\n",
		l.Kubeconfig, l.HTTPAddr, l.HTTPSAddr, l.Domain, l.Registry, l.Router, strings.Join(l.Nodes, " "), l.Replicas, strings.Join(l.LoadBalancer, " "), ShardAddrs(l.Shards))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(env), 0o644)
}
