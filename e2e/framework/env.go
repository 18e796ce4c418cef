package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	routeclient "github.com/openshift/client-go/route/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"

	"github.com/router-conformance/suite/internal/kubeapply"
)

// Env is what the profile hands every parallel process of the suite.
type Env struct {
	Kubeconfig string `json:"kubeconfig"`
	NodeName   string `json:"nodeName"`
	// Images are the suite's component and fixture images: name -> ref.
	Images map[string]string `json:"images"`
	// SmokeAddr is the 127.0.0.1 address mapped to the node's smoke port.
	SmokeAddr string `json:"smokeAddr"`
	// HTTPAddr and HTTPSAddr reach the router (any route host: the client
	// sets SNI and Host).
	HTTPAddr  string `json:"httpAddr"`
	HTTPSAddr string `json:"httpsAddr"`
	// Shards are the node ports a spec's own IngressController may
	// publish on, one or two pairs per parallel process (nextShard; the kind profile's port
	// mappings, or the existing profile's -shard-addrs).
	Shards []ShardPorts `json:"shards,omitempty"`
	// PrivateShards: a spec's own IngressController is published Private
	// and reached through its router-internal Service (the suite runs in
	// the cluster: -in-cluster).
	PrivateShards bool `json:"privateShards,omitempty"`
	// Domain is the IngressController's apps domain.
	Domain string `json:"domain"`
	// FixturePullPolicy: the kind profile loads the fixture images
	// (Never); an existing cluster pulls them (IfNotPresent).
	FixturePullPolicy corev1.PullPolicy `json:"fixturePullPolicy"`
	// Router is the router under test, as the profile found it: the one
	// value from -router-image (or the reference router's build) to the
	// report.
	Router RouterImage `json:"router"`
	// NodeImage is the kind node image (kind profile), for the report.
	NodeImage RouterImage `json:"nodeImage"`
	// KubernetesVersion is read when the suite connects, so the report
	// has it even when the cluster is gone.
	KubernetesVersion string `json:"kubernetesVersion"`
	// Topology is read by every process when it connects.
	Topology Topology `json:"-"`

	Config    *rest.Config             `json:"-"`
	Clientset kubernetes.Interface     `json:"-"`
	Routes    routeclient.Interface    `json:"-"`
	Operator  operatorclient.Interface `json:"-"`
	ConfigAPI configclient.Interface   `json:"-"`
	Resources *resources.Resources     `json:"-"`
}

// Marshal is what the first process passes to the others.
func (e *Env) Marshal() []byte {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return b
}

// RestConfig is the client configuration of a kubeconfig file, or with
// none (-in-cluster) the pod's service account.
func RestConfig(kubeconfig string) (*rest.Config, error) {
	if kubeconfig == "" {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("no -kubeconfig and no service account to connect with (is this a pod of the cluster?): %w", err)
		}
		return cfg, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	return cfg, nil
}

// Connect decodes data from the first process and opens the clients.
func Connect(data []byte) (*Env, error) {
	var e Env
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("decode environment: %w", err)
	}
	cfg, err := RestConfig(e.Kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 50, 100
	if e.Clientset, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if e.Resources, err = kubeapply.Resources(cfg); err != nil {
		return nil, err
	}
	if e.Routes, err = routeclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if e.Operator, err = operatorclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if e.ConfigAPI, err = configclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if v, err := e.Clientset.Discovery().ServerVersion(); err == nil {
		e.KubernetesVersion = v.GitVersion
	}
	// The shape as found; a cluster where it cannot be read runs with the
	// table's Consecutive and records the replicas as unknown.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // not a wait: a bound on three reads
	defer cancel()
	e.Topology, _ = ReadTopology(ctx, e.Clientset)
	e.Config = cfg
	return &e, nil
}

// Image returns the tag of a component image built for this run.
func (e *Env) Image(name string) string {
	tag, ok := e.Images[name]
	if !ok {
		panic(fmt.Sprintf("image %q was not built for this run", name))
	}
	return tag
}

// RouterImage names an image the run judged or ran on: its reference,
// content ID, repository digest when it has one, its own version label
// and the HAProxy version it carries.
type RouterImage struct {
	Ref            string `json:"ref"`
	ID             string `json:"id,omitempty"`
	Digest         string `json:"digest,omitempty"`
	Version        string `json:"version,omitempty"`
	HAProxyVersion string `json:"haproxyVersion,omitempty"`
	// TestOnly are the Go build tags of a test-only build (the fault
	// points of make mutants): never certified.
	TestOnly string `json:"testOnly,omitempty"`
	// Reference: the image is this checkout's reference router, by its
	// content (the kind profile compares IDs), whatever name it was given.
	Reference bool `json:"reference,omitempty"`
}
