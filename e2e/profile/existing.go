package profile

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// existingProfile uses any cluster reachable with -kubeconfig whose router
// the test process reaches at -http-addr and -https-addr. It installs
// nothing; the fixture images (images.Components marked Fixture) are
// built here and must be made available to the cluster under the printed
// tags (kind load, a registry, ...). With -shard-addrs (node ports a load
// balancer fronts, one or two pairs per parallel process) a spec gets an
// IngressController of its own there, as on the kind profile.
type existingProfile struct {
	opts framework.Options
	// What Up found, for Down's second look.
	cs     kubernetes.Interface
	router framework.RouterImage
}

func (p *existingProfile) Capabilities() framework.Capabilities {
	return framework.Capabilities{
		Profile:  framework.ExistingProfile,
		Platform: reports.PlatformCluster,
		// Inside the cluster a new IngressController is reachable: it is
		// published Private and reached through its Service. Outside, it
		// is when the cluster fronts shard ports (-shard-addrs): at least
		// one pair per parallel process, so no more processes than pairs
		// (with two each, a process's shards alternate between them).
		OwnIngressControllers: p.opts.InCluster || len(p.opts.ShardAddrs) > 0,
		MaxParallel:           len(p.opts.ShardAddrs),
	}
}

func (p *existingProfile) Up(ctx context.Context, logf func(string, ...any)) (*framework.Env, error) {
	o := p.opts
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return nil, err
	}
	// No -kubeconfig inside the cluster: the pod's service account.
	cfg, err := framework.RestConfig(o.Kubeconfig)
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := preflight(ctx, o, cs); err != nil {
		return nil, err
	}
	src, err := newImageSource(ctx, root, o, !o.InCluster)
	if err != nil {
		return nil, err
	}
	env := &framework.Env{Kubeconfig: o.Kubeconfig, HTTPAddr: o.HTTPAddr, HTTPSAddr: o.HTTPSAddr, Domain: o.Domain, Images: map[string]string{}, FixturePullPolicy: corev1.PullIfNotPresent, PrivateShards: o.InCluster, Shards: o.ShardAddrs}
	for _, s := range images.Fixtures() {
		if env.Images[s.Name], err = fixtureImage(ctx, src, s, o, logf); err != nil {
			return nil, err
		}
	}
	if env.Router, err = deployedRouter(ctx, cs); err != nil {
		return nil, err
	}
	p.cs, p.router = cs, env.Router
	return env, nil
}

// fixtureImage builds one fixture image and, with -image-repository,
// pushes it there (or, with -images-pushed, finds it) and returns its
// reference by digest: the cluster runs exactly what was built.
func fixtureImage(ctx context.Context, src *imageSource, s images.Spec, o framework.Options, logf func(string, ...any)) (string, error) {
	tag, err := src.image(ctx, s)
	if err != nil {
		return "", fmt.Errorf("fixture image %s: %w", s.Name, err)
	}
	var pushed images.Pushed
	switch {
	case o.ImageRepository == "":
		logf("fixture image %s: %s (not pushed: the cluster must be able to pull it; -image-repository pushes it)", s.Name, tag)
		return tag, nil
	case o.ImagesPushed:
		pushed, err = images.Resolve(ctx, tag, o.ImageRepository)
	default:
		pushed, err = images.PushFromDocker(ctx, tag, o.ImageRepository)
	}
	if err != nil {
		return "", err
	}
	logf("fixture image %s: %s", s.Name, pushed.Remote)
	return pushed.Remote, nil
}

// preflight is the harness check that holds on any cluster, run before
// anything is built: the API answers, the router answers its no-route 503
// for a host of -domain at -http-addr and -https-addr, and every address
// of -shard-addrs accepts a connection (no shard runs behind it yet: its
// load balancer's frontend is all there is to find). A wrong address
// fails the run here with one line instead of in every spec.
func preflight(ctx context.Context, o framework.Options, cs kubernetes.Interface) error {
	if _, err := cs.Discovery().ServerVersion(); err != nil {
		return fmt.Errorf("the cluster of -kubeconfig %s does not answer: %w", o.Kubeconfig, err)
	}
	host := "router-conformance-preflight." + o.Domain
	for _, req := range []httpclient.Request{{Addr: o.HTTPAddr, Host: host, Path: "/"}, {Addr: o.HTTPSAddr, HTTPS: true, Host: host, Path: "/"}} {
		flag := "-http-addr"
		if req.HTTPS {
			flag = "-https-addr"
		}
		req.Timeout = o.Timeouts.Request
		resp, err := httpclient.Do(ctx, req)
		if err != nil {
			return fmt.Errorf("%s %s: the router does not answer a host of -domain %s: %w", flag, req.Addr, o.Domain, err)
		}
		if resp.Status != http.StatusServiceUnavailable {
			return fmt.Errorf("%s %s: a host of -domain %s without a route got HTTP %d, not the router's no-route 503: is this the router of that domain?", flag, req.Addr, o.Domain, resp.Status)
		}
	}
	return checkShardAddrs(ctx, o)
}

// checkShardAddrs dials every address of -shard-addrs once.
func checkShardAddrs(ctx context.Context, o framework.Options) error {
	d := net.Dialer{Timeout: o.Timeouts.Dial}
	for i, p := range o.ShardAddrs {
		for _, addr := range []string{p.HTTPAddr, p.HTTPSAddr} {
			conn, err := d.DialContext(ctx, "tcp", addr)
			if err != nil {
				return fmt.Errorf("-shard-addrs: pair %d (node ports %d, %d): %s does not accept a connection: is a load balancer's frontend there? %w", i+1, p.HTTPPort, p.HTTPSPort, addr, err)
			}
			conn.Close()
		}
	}
	return nil
}

// Down installs nothing away; it reads the router pods' image again: a
// router replaced during the run (a rollout to another image, a pod
// patched by hand) was judged in the recorded image's name.
func (p *existingProfile) Down(ctx context.Context, _ bool, _ func(string, ...any)) error {
	if p.cs == nil {
		return nil
	}
	now, err := deployedRouter(ctx, p.cs)
	if err != nil {
		return fmt.Errorf("at the end of the run: %w", err)
	}
	if now.ID != p.router.ID {
		return fmt.Errorf("at the end of the run the router pods run image %s, not %s, the image the run recorded at its start: what was judged is not what the report names", now.ID, p.router.ID)
	}
	return nil
}

// deployedRouter reads the default IngressController's router image from
// its running pods: the image ID the kubelet reports is what was judged.
// Every router pod must run that one image (a rollout half done, or a pod
// patched by hand, would judge two routers under one name).
func deployedRouter(ctx context.Context, cs kubernetes.Interface) (framework.RouterImage, error) {
	sel := contract.RouterDeploymentLabel + "=" + contract.DefaultIngressController
	pods, err := cs.CoreV1().Pods(contract.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return framework.RouterImage{}, fmt.Errorf("list the router pods (%s in %s): %w", sel, contract.RouterNamespace, err)
	}
	var found *framework.RouterImage
	var first string
	for _, pod := range pods.Items {
		// The reference is the pod spec's, as deployed: the status's
		// image is the runtime's name for it, which for an image pulled
		// by digest may be its config digest.
		deployed := map[string]string{}
		for _, c := range pod.Spec.Containers {
			deployed[c.Name] = c.Image
		}
		for _, st := range pod.Status.ContainerStatuses {
			if st.Name != "router" || st.ImageID == "" {
				continue
			}
			img := framework.RouterImage{Ref: deployed[st.Name], ID: st.ImageID}
			// A kubelet image ID is repo@sha256:...
			if i := strings.LastIndex(st.ImageID, "@"); i >= 0 {
				img.Digest = st.ImageID[i+1:]
			}
			if found == nil {
				found, first = &img, pod.Name
			} else if img.ID != found.ID {
				return framework.RouterImage{}, fmt.Errorf("the router pods run two images: %s %s, %s %s: wait until the router's rollout is done, one image judged at a time", first, found.ID, pod.Name, img.ID)
			}
		}
	}
	if found == nil {
		return framework.RouterImage{}, fmt.Errorf("no running router container in %s (pods %s): is the default IngressController's router deployed?", contract.RouterNamespace, sel)
	}
	return *found, nil
}
