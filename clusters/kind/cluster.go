package kind

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"
	kindcluster "sigs.k8s.io/kind/pkg/cluster"
	"sigs.k8s.io/kind/pkg/cluster/nodes"
	"sigs.k8s.io/kind/pkg/cluster/nodeutils"
	kindcmd "sigs.k8s.io/kind/pkg/cmd"

	"github.com/router-conformance/suite/contract"
)

// Options of a hermetic kind cluster.
type Options struct {
	// Name of the kind cluster; its Docker network is "<Name>-net".
	Name string
	// RepoRoot is the checkout (the node-image pipeline and host scripts).
	RepoRoot string
	// NodeImage skips the node-image build when set.
	NodeImage string
	// Kubeconfig is where the cluster's kubeconfig is written.
	Kubeconfig string
	// Ports are mapped from the node to 127.0.0.1 on the host (the
	// control-plane node's).
	Ports []PortMapping
	// Workers is the number of worker nodes beside the control plane
	// (0: the suite's one-node cluster). They carry WorkerRoleLabel, and
	// each node's pods get the node's podCIDR (multiNodePodNetwork).
	Workers int
	// Mirrors are registries the nodes pull from (a registry container
	// on the cluster's network); none for the suite's own cluster, which
	// loads its images.
	Mirrors []Mirror
	// Reuse an existing cluster of that name instead of failing.
	Reuse bool
	// ReplaceStale deletes an existing cluster of that name (left by an
	// interrupted or kept run) and creates a new one; unattended runs use
	// it so that one killed run cannot break the next.
	ReplaceStale bool
	// Timeouts: ClusterReady bounds node readiness and CoreDNS,
	// ProvisionPoll paces the waits (zero: contract.DefaultTimeouts()).
	Timeouts contract.Timeouts
	// Logf receives progress lines.
	Logf func(format string, args ...any)
}

// Cluster is a running hermetic cluster.
type Cluster struct {
	Name       string
	Kubeconfig string
	NodeImage  string
	Network    *Network
	// Created is false when an existing cluster was reused: Down then
	// leaves it alone unless forced.
	Created  bool
	provider *kindcluster.Provider
	logf     func(string, ...any)
	timeouts contract.Timeouts
}

// DefaultName is the cluster's name unless told otherwise.
const DefaultName = "router-conformance"

func (o *Options) defaults() error {
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.RepoRoot == "" {
		return errors.New("kind: Options.RepoRoot is not set")
	}
	if o.Kubeconfig == "" {
		o.Kubeconfig = filepath.Join(o.RepoRoot, ".cache", o.Name+".kubeconfig")
	}
	if o.Timeouts == (contract.Timeouts{}) {
		o.Timeouts = contract.DefaultTimeouts()
	}
	if o.Logf == nil {
		o.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	}
	if o.Workers < 0 {
		return fmt.Errorf("kind: %d worker nodes", o.Workers)
	}
	for _, m := range o.Mirrors {
		if err := m.validate(); err != nil {
			return err
		}
	}
	return nil
}

// BuildNodeImage runs the offline node-image pipeline (cached by input
// hash) and returns the image's tag.
func BuildNodeImage(ctx context.Context, repoRoot string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(repoRoot, "clusters/kind/nodeimage/build.sh"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("node image build failed (its log is above): %w", err)
	}
	tag := strings.TrimSpace(string(out))
	if tag == "" {
		return "", errors.New("node image build printed no tag")
	}
	return tag, nil
}

// Up builds what is missing, creates (or reuses) the cluster, seals it and
// installs the sealed CoreDNS. If ctx is cancelled while the cluster is
// being created, what was created is deleted before Up returns.
func Up(ctx context.Context, o Options) (*Cluster, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	if err := PrepareDocker(ctx, o.RepoRoot, o.Logf); err != nil {
		return nil, err
	}
	if o.NodeImage == "" {
		tag, err := BuildNodeImage(ctx, o.RepoRoot)
		if err != nil {
			return nil, err
		}
		o.NodeImage = tag
	}
	network, err := EnsureNetwork(ctx, o.Name+"-net", o.NodeImage)
	if err != nil {
		return nil, err
	}
	// The seal goes on before any node exists, so before any pod starts.
	if err := network.Seal(ctx); err != nil {
		return nil, err
	}
	// kind reads the network's name from its environment.
	if err := os.Setenv("KIND_EXPERIMENTAL_DOCKER_NETWORK", network.Name); err != nil {
		return nil, err
	}
	provider := newProvider()
	c := &Cluster{Name: o.Name, Kubeconfig: o.Kubeconfig, NodeImage: o.NodeImage, Network: network, provider: provider, logf: o.Logf, timeouts: o.Timeouts}

	existing, err := provider.List()
	if err != nil {
		return nil, fmt.Errorf("list kind clusters: %w", err)
	}
	if slices.Contains(existing, o.Name) && o.ReplaceStale && !o.Reuse {
		o.Logf("deleting the stale kind cluster %q (REUSE=1 would have reused it)", o.Name)
		if err := provider.Delete(o.Name, o.Kubeconfig); err != nil {
			return nil, fmt.Errorf("delete the stale cluster %q: %w", o.Name, err)
		}
		existing = slices.DeleteFunc(existing, func(n string) bool { return n == o.Name })
	}
	if slices.Contains(existing, o.Name) {
		if !o.Reuse {
			return nil, fmt.Errorf("a kind cluster %q exists already: delete it (make cluster-down) or reuse it (REUSE=1)", o.Name)
		}
		o.Logf("reusing kind cluster %q", o.Name)
		if err := provider.ExportKubeConfig(o.Name, o.Kubeconfig, false); err != nil {
			return nil, fmt.Errorf("export kubeconfig of %q: %w", o.Name, err)
		}
	} else {
		if err := c.create(ctx, o); err != nil {
			return nil, err
		}
	}
	if err := c.configureMirrors(o.Mirrors); err != nil {
		return c, err
	}
	if err := c.multiNodePodNetwork(ctx, 1+o.Workers); err != nil {
		return c, err
	}
	if err := c.installAddons(ctx, o); err != nil {
		return c, err
	}
	return c, nil
}

// configureMirrors writes the mirrors' host files into every node.
func (c *Cluster) configureMirrors(mirrors []Mirror) error {
	if len(mirrors) == 0 {
		return nil
	}
	nodes, err := c.provider.ListInternalNodes(c.Name)
	if err != nil {
		return fmt.Errorf("list nodes of %q: %w", c.Name, err)
	}
	for _, node := range nodes {
		if err := writeMirrors(node, mirrors); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cluster) create(ctx context.Context, o Options) error {
	cfg, err := ClusterConfig(PinnedVersions(), 0, o.Ports)
	if err != nil {
		return err
	}
	if err := AddWorkers(cfg, o.Workers); err != nil {
		return err
	}
	if len(o.Mirrors) > 0 {
		cfg.ContainerdConfigPatches = append(cfg.ContainerdConfigPatches, registryConfigPatch)
	}
	if err := os.MkdirAll(filepath.Dir(o.Kubeconfig), 0o755); err != nil {
		return err
	}
	o.Logf("creating kind cluster %q from %s (%d worker nodes)", o.Name, o.NodeImage, o.Workers)
	if o.Workers > 0 {
		// The workers must find the control plane by name before they
		// join (pinNodeNames); it runs beside kind's create.
		pinCtx, stopPin := context.WithCancel(ctx)
		defer stopPin()
		go func() {
			if err := c.pinNodeNames(pinCtx, 1+o.Workers); err != nil && pinCtx.Err() == nil {
				o.Logf("%v", err)
			}
		}()
	}
	done := make(chan error, 1)
	go func() {
		done <- c.provider.Create(o.Name,
			kindcluster.CreateWithV1Alpha4Config(cfg),
			kindcluster.CreateWithNodeImage(o.NodeImage),
			kindcluster.CreateWithKubeconfigPath(o.Kubeconfig),
			kindcluster.CreateWithWaitForReady(o.Timeouts.ClusterReady),
			kindcluster.CreateWithDisplayUsage(false),
			kindcluster.CreateWithDisplaySalutation(false),
		)
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("kind create cluster %q: %w (kind deletes a half-made cluster; logs: make cluster-logs)", o.Name, err)
		}
		c.Created = true
		return nil
	case <-ctx.Done():
		o.Logf("interrupted: deleting the half-made cluster %q", o.Name)
		c.Created = true
		_ = c.Down(context.Background(), true)
		<-done
		_ = c.Down(context.Background(), true)
		return fmt.Errorf("cluster creation interrupted: %w", ctx.Err())
	}
}

func (c *Cluster) installAddons(ctx context.Context, o Options) error {
	r, err := c.Resources()
	if err != nil {
		return err
	}
	o.Logf("installing the sealed CoreDNS")
	if err := InstallCoreDNS(ctx, r, PinnedVersions(), o.Timeouts); err != nil {
		return err
	}
	return WaitNodesReady(ctx, r, o.Timeouts)
}

// Resources returns an e2e-framework client for the cluster.
func (c *Cluster) Resources() (*resources.Resources, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", c.Kubeconfig, err)
	}
	return resources.New(cfg)
}

// WaitNodesReady waits until every node reports Ready.
func WaitNodesReady(ctx context.Context, r *resources.Resources, t contract.Timeouts) error {
	var last string
	err := wait.PollUntilContextTimeout(ctx, t.ProvisionPoll, t.ClusterReady, true, func(ctx context.Context) (bool, error) {
		var nodes corev1.NodeList
		if err := r.List(ctx, &nodes); err != nil {
			last = err.Error()
			return false, nil
		}
		for _, n := range nodes.Items {
			if !NodeReady(&n) {
				last = "node " + n.Name + " is not Ready"
				return false, nil
			}
		}
		return len(nodes.Items) > 0, nil
	})
	if err != nil {
		return fmt.Errorf("nodes not Ready within %s (%s): %w", t.ClusterReady, last, err)
	}
	return nil
}

// NodeReady reports the node's Ready condition.
func NodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// Down deletes the cluster, its seal rule and its network. A reused
// cluster is left alone unless force is set.
func (c *Cluster) Down(ctx context.Context, force bool) error {
	if !c.Created && !force {
		c.logf("kind cluster %q was reused: left running", c.Name)
		return nil
	}
	if err := c.provider.Delete(c.Name, c.Kubeconfig); err != nil {
		return fmt.Errorf("kind delete cluster %q: %w", c.Name, err)
	}
	if c.Network != nil {
		if err := c.Network.Remove(ctx); err != nil {
			return fmt.Errorf("remove network %s: %w", c.Network.Name, err)
		}
	}
	return nil
}

// Delete removes a cluster by name (and its network), whether or not this
// process created it: what `make cluster-down` does.
func Delete(ctx context.Context, o Options) error {
	if err := o.defaults(); err != nil {
		return err
	}
	provider := newProvider()
	if err := provider.Delete(o.Name, o.Kubeconfig); err != nil {
		return fmt.Errorf("kind delete cluster %q: %w", o.Name, err)
	}
	netName := o.Name + "-net"
	if _, err := docker(ctx, "network", "inspect", netName); err != nil {
		return nil
	}
	image := o.NodeImage
	if image == "" {
		// Any node image will do to run iptables; the newest one is there.
		image, _ = docker(ctx, "images", "--format", "{{.Repository}}:{{.Tag}}", "--filter", "reference="+"router-conformance/kind-node")
		image, _, _ = strings.Cut(image, "\n")
	}
	network, err := EnsureNetwork(ctx, netName, image)
	if err != nil {
		return err
	}
	return network.Remove(ctx)
}

// LoadImages copies local Docker images into every node's containerd,
// skipping those the node already has with the same ID.
func (c *Cluster) LoadImages(ctx context.Context, tags ...string) error {
	byID := map[string]string{}
	for _, tag := range tags {
		id, err := docker(ctx, "image", "inspect", "--format", "{{.Id}}", tag)
		if err != nil {
			return fmt.Errorf("image %s is not built: %w", tag, err)
		}
		byID[tag] = id
	}
	return c.LoadImagesByID(ctx, byID)
}

// LoadImagesByID copies each tag into every node, refusing one whose
// content is no longer the ID the run recorded for it (tag -> ID): what
// the nodes hold is what the run named. A node's missing images go in
// one archive: each image of its own cost a docker save, a ctr import and
// the execs that check it, about 3 s of a kind set-up's 30.
func (c *Cluster) LoadImagesByID(ctx context.Context, images map[string]string) error {
	if err := unmoved(ctx, images); err != nil {
		return err
	}
	nodes, err := c.provider.ListInternalNodes(c.Name)
	if err != nil {
		return fmt.Errorf("list nodes of %q: %w", c.Name, err)
	}
	tags := slices.Sorted(maps.Keys(images))
	for _, node := range nodes {
		have, err := nodeImageIDs(node, tags)
		if err != nil {
			return err
		}
		var missing []string
		for _, tag := range tags {
			if have[tag] != images[tag] {
				missing = append(missing, tag)
			}
		}
		if len(missing) == 0 {
			continue
		}
		if err := loadImages(ctx, node, missing); err != nil {
			return fmt.Errorf("load %s into %s: %w", strings.Join(missing, ", "), node.String(), err)
		}
		if have, err = nodeImageIDs(node, missing); err != nil {
			return err
		}
		for _, tag := range missing {
			switch {
			case have[tag] == "":
				return fmt.Errorf("image %s is not in %s after loading it", tag, node.String())
			case have[tag] != images[tag]:
				return fmt.Errorf("image %s in %s is %s after loading, not %s: a tag moved during the load; rerun", tag, node.String(), have[tag], images[tag])
			}
		}
	}
	return nil
}

// unmoved: every tag still names the content the run recorded for it.
func unmoved(ctx context.Context, images map[string]string) error {
	for _, tag := range slices.Sorted(maps.Keys(images)) {
		id, err := docker(ctx, "image", "inspect", "--format", "{{.Id}}", tag)
		if err != nil {
			return fmt.Errorf("image %s is not built: %w", tag, err)
		}
		if id != images[tag] {
			return fmt.Errorf("image %s is %s now, not %s as the run recorded it: a tag moved during the run; rerun", tag, id, images[tag])
		}
	}
	return nil
}

// nodeImageID is the content ID (the image config's digest, which is
// Docker's image ID) of an image the node's containerd holds, named as a
// pod's status names it (<repository>@<manifest digest>) or by a tag.
func nodeImageID(node nodes.Node, ref string) (string, error) {
	ids, err := nodeImageIDs(node, []string{ref})
	if err != nil {
		return "", err
	}
	if ids[ref] == "" {
		return "", fmt.Errorf("the node %s holds no image %s", node.String(), ref)
	}
	return ids[ref], nil
}

// nodeImageIDs is nodeImageID of each ref the node holds (the others are
// absent from the map), in three execs at most, whatever their number.
// The node image has ctr, not crictl: the manifests are read from
// containerd's content store.
func nodeImageIDs(node nodes.Node, refs []string) (map[string]string, error) {
	manifests := map[string]string{} // ref -> the digest of its manifest, or of an index of one
	var tags []string
	for _, ref := range refs {
		if _, digest, ok := strings.Cut(ref, "@"); ok {
			manifests[ref] = digest
		} else {
			tags = append(tags, ref)
		}
	}
	if len(tags) > 0 {
		var out bytes.Buffer
		if err := node.Command("ctr", "--namespace=k8s.io", "images", "ls").SetStdout(&out).Run(); err != nil {
			return nil, fmt.Errorf("ctr images ls in %s: %w", node.String(), err)
		}
		listed := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
			if fields := strings.Fields(line); len(fields) >= 3 { // REF TYPE DIGEST ...
				listed[fields[0]] = fields[2]
			}
		}
		for _, tag := range tags {
			if digest, ok := listed[normalizedImageName(tag)]; ok {
				manifests[tag] = digest
			}
		}
	}
	ids := map[string]string{}
	for range 2 { // a manifest, or an index of one
		if len(manifests) == 0 {
			return ids, nil
		}
		docs, err := contentGet(node, slices.Sorted(maps.Values(manifests)))
		if err != nil {
			return nil, err
		}
		next := map[string]string{}
		for ref, digest := range manifests {
			m := docs[digest]
			switch {
			case m.Config.Digest != "":
				ids[ref] = m.Config.Digest
			case len(m.Manifests) == 1:
				next[ref] = m.Manifests[0].Digest
			default:
				return nil, fmt.Errorf("the image index %s of %s has %d manifests, not one", digest, ref, len(m.Manifests))
			}
		}
		manifests = next
	}
	if len(manifests) > 0 {
		return nil, fmt.Errorf("the images %s have no config", strings.Join(slices.Sorted(maps.Keys(manifests)), ", "))
	}
	return ids, nil
}

// imageManifest is what nodeImageIDs reads of a manifest or an index.
type imageManifest struct {
	Config    struct{ Digest string }   `json:"config"`
	Manifests []struct{ Digest string } `json:"manifests"`
}

// contentGet reads each digest's manifest (or index) from the node's
// content store, in one exec.
func contentGet(node nodes.Node, digests []string) (map[string]imageManifest, error) {
	digests = slices.Compact(digests)
	var out bytes.Buffer
	script := `for d do ctr --namespace=k8s.io content get "$d" || exit 1; echo; done`
	if err := node.Command("sh", append([]string{"-c", script, "sh"}, digests...)...).SetStdout(&out).Run(); err != nil {
		return nil, fmt.Errorf("ctr content get %s in %s: %w", strings.Join(digests, " "), node.String(), err)
	}
	docs := map[string]imageManifest{}
	dec := json.NewDecoder(&out)
	for _, digest := range digests {
		var m imageManifest
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("the manifest %s in %s: %w", digest, node.String(), err)
		}
		docs[digest] = m
	}
	return docs, nil
}

// normalizedImageName is a reference as containerd stores it: Docker
// Hub's domain (and library/ for a one-part name) when none is given.
func normalizedImageName(ref string) string {
	first, _, hasSlash := strings.Cut(ref, "/")
	switch {
	case !hasSlash:
		return "docker.io/library/" + ref
	case strings.ContainsAny(first, ".:") || first == "localhost":
		return ref
	}
	return "docker.io/" + ref
}

// ImageIDOf is the content ID the node's container runtime gives an image
// reference, as a pod's status names it (kubelet's imageID).
func (c *Cluster) ImageIDOf(ctx context.Context, node, ref string) (string, error) {
	nodes, err := c.provider.ListInternalNodes(c.Name)
	if err != nil {
		return "", fmt.Errorf("list nodes of %q: %w", c.Name, err)
	}
	for _, n := range nodes {
		if n.String() == node {
			return nodeImageID(n, ref)
		}
	}
	return "", fmt.Errorf("no node %q in cluster %q", node, c.Name)
}

// loadImages imports the tags into the node's containerd as one
// archive.
func loadImages(ctx context.Context, node nodes.Node, tags []string) error {
	save := exec.CommandContext(ctx, "docker", append([]string{"save"}, tags...)...)
	stdout, err := save.StdoutPipe()
	if err != nil {
		return err
	}
	if err := save.Start(); err != nil {
		return err
	}
	loadErr := nodeutils.LoadImageArchive(node, stdout)
	_, _ = io.Copy(io.Discard, stdout)
	if err := save.Wait(); err != nil {
		return fmt.Errorf("docker save %s: %w", strings.Join(tags, " "), err)
	}
	return loadErr
}

// HostPort returns the 127.0.0.1 address the node's port is mapped to.
func (c *Cluster) HostPort(ctx context.Context, nodePort int32) (string, error) {
	out, err := docker(ctx, "port", c.NodeName(), fmt.Sprintf("%d/tcp", nodePort))
	if err != nil {
		return "", fmt.Errorf("node port %d is not mapped: %w", nodePort, err)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, Loopback+":") {
			return line, nil
		}
	}
	return "", fmt.Errorf("node port %d is mapped to %q, not to %s", nodePort, out, Loopback)
}

// ExportLogs writes kind's node logs to dir.
func (c *Cluster) ExportLogs(dir string) error {
	return c.provider.CollectLogs(c.Name, dir)
}

// newProvider is kind's Docker provider, logging kind's progress lines.
func newProvider() *kindcluster.Provider {
	return kindcluster.NewProvider(kindcluster.ProviderWithDocker(), kindcluster.ProviderWithLogger(kindcmd.NewLogger()))
}

// NodeName is the Kubernetes (and container) name of the control-plane
// node (the only node of a one-node cluster).
func (c *Cluster) NodeName() string { return c.Name + "-control-plane" }

// WorkerNames are the Kubernetes (and container) names of the worker
// nodes, as kind names them.
func (c *Cluster) WorkerNames() ([]string, error) {
	list, err := c.provider.ListInternalNodes(c.Name)
	if err != nil {
		return nil, fmt.Errorf("list nodes of %q: %w", c.Name, err)
	}
	var out []string
	for _, n := range list {
		if n.String() != c.NodeName() {
			out = append(out, n.String())
		}
	}
	slices.Sort(out)
	return out, nil
}

// Exists reports whether a kind cluster of that name exists.
func Exists(name string) (bool, error) {
	provider := newProvider()
	names, err := provider.List()
	return slices.Contains(names, name), err
}

// SmokeNodePort is a node port mapped to the host for the smoke check's
// hostPort pod.
const SmokeNodePort = 30080

// CollectLogs writes kind's node logs of the named cluster to dir.
func CollectLogs(o Options, dir string) error {
	if err := o.defaults(); err != nil {
		return err
	}
	provider := newProvider()
	return provider.CollectLogs(o.Name, dir)
}
