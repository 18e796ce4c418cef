package profile

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/platform/install"
	"github.com/router-conformance/suite/reports"
)

// kindProfile creates (or reuses) the hermetic kind cluster, installs the
// suite's platform (route admission, the reference ingress operator) and
// the router under test in it.
type kindProfile struct {
	opts    framework.Options
	cluster *kind.Cluster
	// routerID is the router image the run recorded, checked again
	// against the router pods at the end.
	routerID string
}

func (p *kindProfile) Capabilities() framework.Capabilities {
	return framework.Capabilities{
		Profile:               framework.KindProfile,
		OwnIngressControllers: true,
		MaxParallel:           kind.MaxProcesses,
		KindHarness:           true,
		OwnsCluster:           true,
		ReferenceRouter:       p.opts.RouterImage == "",
		Platform:              reports.PlatformStandIns,
	}
}

func (p *kindProfile) Up(ctx context.Context, logf func(string, ...any)) (*framework.Env, error) {
	c, env, err := KindUp(ctx, p.opts, logf)
	p.cluster = c
	if env != nil {
		p.routerID = env.Router.ID
	}
	return env, err
}

func (p *kindProfile) Down(ctx context.Context, failed bool, logf func(string, ...any)) error {
	if p.cluster == nil {
		return nil
	}
	var ranOther error
	if p.routerID != "" {
		ranOther = checkRouterPods(ctx, p.cluster, p.routerID)
	}
	if err := p.down(ctx, failed || ranOther != nil, logf); err != nil {
		return errors.Join(ranOther, err)
	}
	return ranOther
}

func (p *kindProfile) down(ctx context.Context, failed bool, logf func(string, ...any)) error {
	if failed {
		if err := p.cluster.ExportLogs(filepath.Join(p.opts.ReportDir, "failures", "cluster-logs")); err != nil {
			logf("export cluster logs: %v", err)
		}
	}
	if p.opts.Keep {
		logf("keeping cluster %q: KUBECONFIG=%s", p.cluster.Name, p.cluster.Kubeconfig)
		return nil
	}
	return p.cluster.Down(ctx, false)
}

// checkReferenceHAProxy: the reference router runs the HAProxy that
// clusters/kind/versions.env pins, whichever way its image came (built
// here, or a kit's).
func checkReferenceHAProxy(o framework.Options, router images.RouterImage) error {
	if o.RouterImage != "" {
		return nil // another router: its HAProxy is its own, and reported
	}
	if want := kind.PinnedVersions().HAProxy; router.HAProxyVersion != want {
		return fmt.Errorf("the reference router image %s runs HAProxy %q, clusters/kind/versions.env pins HAPROXY_VERSION=%s: rebuild it (make images) or use the kit made with this checkout", router.Ref, router.HAProxyVersion, want)
	}
	return nil
}

// KindUp brings up (or reuses) the hermetic cluster, loads the images into
// it and installs the platform and the router under test.
func KindUp(ctx context.Context, o framework.Options, logf func(string, ...any)) (*kind.Cluster, *framework.Env, error) {
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return nil, nil, err
	}
	src, err := newImageSource(ctx, root, o, true)
	if err != nil {
		return nil, nil, err
	}
	// The router image is described (a user's one checked) once, before
	// anything is created; the reference router is built only when it is
	// the one judged.
	routerRef := o.RouterImage
	if routerRef == "" {
		if routerRef, err = src.image(ctx, images.ReferenceRouter); err != nil {
			return nil, nil, err
		}
	}
	router, err := images.DescribeRouter(ctx, routerRef)
	if err != nil {
		return nil, nil, err
	}
	if err := checkReferenceHAProxy(o, router); err != nil {
		return nil, nil, err
	}
	if o.Certify && router.TestOnly != "" {
		return nil, nil, fmt.Errorf("the router image %s is a test-only build (Go build tags %q, label %s): a certification judges a router as shipped; build it without them", routerRef, router.TestOnly, images.TestOnlyLabel)
	}
	reference, err := referenceRouterID(ctx, o, src)
	if err != nil {
		return nil, nil, err
	}
	if reference != router.ID {
		reference = ""
	}
	// The reference router under another name is refused as soon as its
	// ID is known: before the node image, the components and the cluster.
	if reference != "" {
		if err := reports.ReferenceRouterName(o.ImplementationProject); err != nil {
			return nil, nil, err
		}
	}
	nodeImage, err := src.nodeImage(ctx)
	if err != nil {
		return nil, nil, err
	}
	// The component images are built (or found cached) while kind
	// creates the cluster: neither needs the other.
	pinCtx, stopPinning := context.WithCancel(ctx)
	defer stopPinning()
	pinning := make(chan pinnedComponents, 1)
	go func() { pinning <- pinComponents(pinCtx, src) }()
	c, err := kind.Up(ctx, kind.Options{
		Name: o.ClusterName, RepoRoot: root, NodeImage: nodeImage, Reuse: o.Reuse, ReplaceStale: true, Timeouts: o.Timeouts, Logf: logf,
		Ports: kind.SuitePorts(0, 0),
	})
	if err != nil {
		stopPinning()
		<-pinning
		return c, nil, err
	}
	components := <-pinning
	if components.err != nil {
		return c, nil, components.err
	}
	env := &framework.Env{Kubeconfig: c.Kubeconfig, NodeName: c.NodeName(), FixturePullPolicy: corev1.PullNever, Images: map[string]string{}}
	// Every image is named by its content from here on: the router by
	// the ID it was described with, each instrument by the ID its tag has
	// now. What the nodes load, the pods run and the report records is
	// that content, whatever the names point at later.
	env.Router = describedImage(router)
	env.Router.Reference = o.RouterImage == "" || reference != ""
	pinnedRouter, err := images.TagByID(ctx, "router", router.ID)
	if err != nil {
		return c, nil, fmt.Errorf("the router image %s: %w", routerRef, err)
	}
	load := map[string]string{pinnedRouter: router.ID}
	for name, tag := range components.tags {
		env.Images[name], load[tag] = tag, components.ids[tag]
	}
	if node, err := images.Inspect(ctx, c.NodeImage); err == nil {
		env.NodeImage = framework.RouterImage{Ref: node.Ref, ID: node.ID}
	}
	logf("loading %d images into the nodes", len(load))
	if err := c.LoadImagesByID(ctx, load); err != nil {
		return c, nil, err
	}
	if env.SmokeAddr, err = c.HostPort(ctx, kind.SmokeNodePort); err != nil {
		return c, nil, err
	}
	if env.HTTPAddr, err = c.HostPort(ctx, 80); err != nil {
		return c, nil, err
	}
	if env.HTTPSAddr, err = c.HostPort(ctx, 443); err != nil {
		return c, nil, err
	}
	if env.Shards, err = readShardPorts(func(p int32) (string, error) { return c.HostPort(ctx, p) }); err != nil {
		return c, nil, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		return c, nil, err
	}
	err = install.Install(ctx, cfg, install.Options{
		RepoRoot: root, Timeouts: o.Timeouts, Logf: logf, Fault: o.SwitchedOn(),
		Images: install.Images{Router: pinnedRouter, Admission: env.Image("route-admission"), Reconciler: env.Image("ingress-reconciler"), Syslog: env.Image("syslog")},
	})
	if err != nil {
		return c, nil, fmt.Errorf("install the router (%s): %w", routerRef, err)
	}
	if err := checkRouterPods(ctx, c, router.ID); err != nil {
		return c, nil, err
	}
	env.Domain = install.DefaultDomain
	return c, env, nil
}

// pinnedComponents: each component image's tag by its content (name ->
// tag) and that content's ID (tag -> ID).
type pinnedComponents struct {
	tags, ids map[string]string
	err       error
}

func pinComponents(ctx context.Context, src *imageSource) pinnedComponents {
	p := pinnedComponents{tags: map[string]string{}, ids: map[string]string{}}
	for _, s := range images.Components {
		ref, err := src.image(ctx, s)
		if err != nil {
			p.err = err
			return p
		}
		tag, id, err := images.Pin(ctx, s.Name, ref)
		if err != nil {
			p.err = fmt.Errorf("the %s image %s: %w", s.Name, ref, err)
			return p
		}
		p.tags[s.Name], p.ids[tag] = tag, id
	}
	return p
}

// referenceRouterID is this checkout's reference router image ID when the
// run judges another image under -certify (built or found cached): the
// reference router is known by its content, never by an empty flag, so
// that it certifies under no other name.
func referenceRouterID(ctx context.Context, o framework.Options, src *imageSource) (string, error) {
	if o.RouterImage == "" || !o.Certify {
		return "", nil
	}
	ref, err := src.image(ctx, images.ReferenceRouter)
	if err != nil {
		return "", fmt.Errorf("-certify: build this checkout's reference router to tell it from the router judged: %w", err)
	}
	img, err := images.Inspect(ctx, ref)
	return img.ID, err
}

// checkRouterPods: every router container in the router namespace runs
// the image the run recorded, by the ID its node's runtime gives the
// kubelet's imageID. After the install and again at the end: a pod that
// ran anything else would have been judged in the image's name.
func checkRouterPods(ctx context.Context, c *kind.Cluster, want string) error {
	r, err := c.Resources()
	if err != nil {
		return err
	}
	var pods corev1.PodList
	if err := r.WithNamespace(contract.RouterNamespace).List(ctx, &pods, resources.WithLabelSelector(contract.RouterDeploymentLabel)); err != nil {
		return fmt.Errorf("list the router pods in %s: %w", contract.RouterNamespace, err)
	}
	checked := 0
	for _, pod := range pods.Items {
		if pod.DeletionTimestamp != nil {
			continue // a rollout's old pod, on its way out
		}
		for _, st := range pod.Status.ContainerStatuses {
			if st.Name != contract.RouterContainer || st.ImageID == "" {
				continue
			}
			got, err := c.ImageIDOf(ctx, pod.Spec.NodeName, st.ImageID)
			if err != nil {
				return fmt.Errorf("the image router pod %s runs (%s): %w", pod.Name, st.ImageID, err)
			}
			if got != want {
				return fmt.Errorf("router pod %s runs image %s, not the router image the run names (%s): what ran is not what the report would name", pod.Name, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		return fmt.Errorf("no running router container in %s to check the image of", contract.RouterNamespace)
	}
	return nil
}

// imageSource gives the images a run uses: built here (cached by the hash
// of their inputs), or prebuilt and listed in -images (an air-gapped kit:
// nothing is built, no Go toolchain is called).
type imageSource struct {
	root      string
	manifest  *images.Manifest
	nodeFlag  string
	manifestF string
	// fresh: a certification builds every component image again rather
	// than trust the tag its cache look-up names (images.BuildFresh).
	fresh bool
	// faults: the images that hold fault points are built with them
	// (-fault, make mutants).
	faults bool
}

// checkLocal: the images of -images must be in the local Docker engine
// as listed; inside the cluster there is none to ask, and the manifest
// names what the nodes hold or pull.
func newImageSource(ctx context.Context, root string, o framework.Options, checkLocal bool) (*imageSource, error) {
	src := &imageSource{root: root, nodeFlag: o.NodeImage, manifestF: o.ImageManifest, fresh: o.Certify, faults: o.FaultBuild()}
	if o.ImageManifest == "" {
		return src, nil
	}
	m, err := images.ReadManifest(o.ImageManifest)
	if err != nil {
		return nil, fmt.Errorf("-images: %w", err)
	}
	if checkLocal {
		if err := m.Present(ctx, "-images "+o.ImageManifest); err != nil {
			return nil, err
		}
	}
	src.manifest = &m
	return src, nil
}

// image is the local reference of s.
func (src *imageSource) image(ctx context.Context, s images.Spec) (string, error) {
	if src.faults {
		s = images.FaultBuild(s)
	}
	if src.manifest == nil && src.fresh {
		return images.BuildFresh(ctx, src.root, s)
	}
	if src.manifest == nil {
		return images.Build(ctx, src.root, s)
	}
	img, ok := src.manifest.Lookup(s.Name)
	if !ok {
		return "", fmt.Errorf("-images %s lists no %q image: the run needs it (make kit lists every image)", src.manifestF, s.Name)
	}
	return img.Ref, nil
}

// nodeImage is -node-image, else the manifest's node image, else ""
// (kind.Up builds it).
func (src *imageSource) nodeImage(ctx context.Context) (string, error) {
	if src.nodeFlag != "" {
		if _, err := images.Inspect(ctx, src.nodeFlag); err != nil {
			return "", fmt.Errorf("-node-image %s is not in the local Docker engine (it is never pulled): load it first", src.nodeFlag)
		}
		return src.nodeFlag, nil
	}
	if src.manifest != nil {
		if img, ok := src.manifest.Lookup(images.NodeImageName); ok {
			return img.Ref, nil
		}
	}
	return "", nil
}

// describedImage is what the report says of a local image.
func describedImage(img images.RouterImage) framework.RouterImage {
	return framework.RouterImage{Ref: img.Ref, ID: img.ID, Digest: img.Digest, Version: img.Version, HAProxyVersion: img.HAProxyVersion, TestOnly: img.TestOnly}
}
