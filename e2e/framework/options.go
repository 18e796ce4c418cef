// Package framework is what the conformance specs stand on: the options
// of a run, the environment the profile connects, a namespace per spec,
// backends, routes, the one wait, expectations and diagnostics. What
// provisions a cluster lives in e2e/profile.
package framework

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults/catalogue"
)

// Options of a run. Every option is declared once, in table(): its flag,
// its key in the -config file, its usage. Defaults come from
// DefaultOptions, then the file, then only the flags given on the command
// line (as Gateway API's conformance flags over its file).
type Options struct {
	Profile     string
	ClusterName string
	Reuse       bool
	Keep        bool
	RepoRoot    string
	ReportDir   string
	// Features the implementation claims; empty means the profile's
	// default claims (Complete fills them).
	Features []contract.Feature
	// OpenShiftRelease is the upstream release line whose behaviour the
	// specs assert (contract/releases.go).
	OpenShiftRelease contract.Release
	// The existing profile: how to reach the cluster and its router.
	Kubeconfig string
	HTTPAddr   string
	HTTPSAddr  string
	Domain     string
	// ImageRepository is where the existing profile pushes the fixture
	// images it built (registry/prefix); ImagesPushed says they are there
	// already (make push-images), so only their digests are read.
	ImageRepository string
	ImagesPushed    bool
	// RouterImage is a local Docker image the kind profile deploys as the
	// router instead of the reference one (never pulled).
	RouterImage string
	// NodeImage is a prebuilt kind node image (local): the kind profile
	// builds none.
	NodeImage string
	// ImageManifest is a file listing prebuilt images by name
	// (images.Manifest, an air-gapped kit's images.json): the profile
	// uses them and builds no component, fixture or router image, and
	// with a node entry no node image either.
	ImageManifest string
	// The implementation named in the report.
	ImplementationOrganization string
	ImplementationProject      string
	ImplementationURL          string
	ImplementationContact      []string
	ImplementationVersion      string
	// Certify is a certification run: the whole claimed suite, with the
	// documented waits, on a cluster made for it, the implementation
	// named (make certify).
	Certify bool
	// InCluster: the suite runs in a pod of the cluster (the conformance
	// image hydrophone runs). Clients come from the pod's service
	// account unless -kubeconfig is given; routers are reached through
	// their router-internal Services, and a spec's own IngressController
	// is published Private and reached the same way.
	InCluster bool
	// ShardAddrs (existing profile): one pair of node ports per parallel
	// process that a load balancer's frontends reach, as a cluster has
	// them for sharded IngressControllers. With them a spec's own
	// IngressController publishes on its process's pair (HostNetwork) and
	// runs in parallel, as on the kind profile; without them it is the
	// default IngressController, Serial.
	ShardAddrs []ShardPorts
	// AllowDisruptive lets specs change cluster-wide objects of a cluster
	// the suite did not make (the default IngressController, the Ingress
	// config); each change is undone when the spec ends.
	AllowDisruptive bool
	// Fault (kind profile, test-only: make mutants) runs the reference
	// router and the platform stand-ins built with their fault points,
	// with this fault of faults/catalogue switched on (NoFault: none).
	// "" is the images as shipped.
	Fault string
	// Timeouts are every wait of the run (contract/timeouts.go).
	Timeouts contract.Timeouts
}

// NoFault is the -fault of a fault build's control run: the fault points
// compiled in, none switched on.
const NoFault = "none"

// FaultBuild: the run's images are built with their fault points.
func (o Options) FaultBuild() bool { return o.Fault != "" }

// SwitchedOn is the fault the run's processes switch on ("" for none).
func (o Options) SwitchedOn() string {
	if o.Fault == NoFault {
		return ""
	}
	return o.Fault
}

// The profiles, by their option value.
const (
	KindProfile     = "kind"
	ExistingProfile = "existing"
)

// DefaultOptions are the options of a run that sets nothing: the kind
// profile with the reference router, and the documented waits.
func DefaultOptions() Options {
	return Options{
		Profile: KindProfile, ClusterName: "router-conformance", RepoRoot: "..", ReportDir: "../_output",
		Timeouts:         contract.DefaultTimeouts(),
		OpenShiftRelease: contract.DefaultRelease,
	}
}

// option is one row of the table: where it lives in Options, and how a
// flag and the file name it.
type option struct {
	flag, file, usage string
	value             setter
}

// setter reads an option's text (a flag's value, or the file's).
type setter interface {
	set(string) error
	isBool() bool
}

type stringOpt struct{ p *string }
type boolOpt struct{ p *bool }
type intOpt struct{ p *int }
type durationOpt struct{ p *time.Duration }
type listOpt struct{ p *[]string }
type featuresOpt struct{ p *[]contract.Feature }
type releaseOpt struct{ p *contract.Release }
type shardAddrsOpt struct{ p *[]ShardPorts }

func (v stringOpt) set(s string) error { *v.p = s; return nil }
func (v boolOpt) set(s string) error {
	b, err := strconv.ParseBool(s)
	*v.p = b
	return err
}
func (v intOpt) set(s string) error {
	n, err := strconv.Atoi(s)
	*v.p = n
	return err
}
func (v durationOpt) set(s string) error {
	d, err := time.ParseDuration(s)
	*v.p = d
	return err
}

// A list option appends: repeated flags, or the file's list.
func (v listOpt) set(s string) error { *v.p = append(*v.p, s); return nil }

// Features are comma-separated (-features a,b) and replace the default.
func (v featuresOpt) set(s string) error {
	*v.p = nil
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			*v.p = append(*v.p, contract.Feature(f))
		}
	}
	return nil
}

// A release is one the suite tracks, or an error listing them.
func (v releaseOpt) set(s string) error {
	r, err := contract.ParseRelease(s)
	*v.p = r
	return err
}
func (releaseOpt) isBool() bool  { return false }
func (stringOpt) isBool() bool   { return false }
func (boolOpt) isBool() bool     { return true }
func (intOpt) isBool() bool      { return false }
func (durationOpt) isBool() bool { return false }
func (listOpt) isBool() bool     { return false }
func (featuresOpt) isBool() bool { return false }

// Shard pairs append: space-separated in one value, or the flag repeated.
func (v shardAddrsOpt) set(s string) error {
	pairs, err := ParseShardAddrs(s)
	*v.p = append(*v.p, pairs...)
	return err
}
func (shardAddrsOpt) isBool() bool { return false }

// table is every option of o.
func (o *Options) table() []option {
	opts := []option{
		{"profile", "profile", "cluster profile: kind (hermetic, built here) or existing (any kubeconfig)", stringOpt{&o.Profile}},
		{"cluster-name", "clusterName", "kind cluster name", stringOpt{&o.ClusterName}},
		{"reuse", "reuse", "reuse an existing kind cluster of that name (fast dev loop)", boolOpt{&o.Reuse}},
		{"keep", "keep", "keep the cluster after the run (debugging)", boolOpt{&o.Keep}},
		{"repo", "repo", "the suite's checkout", stringOpt{&o.RepoRoot}},
		{"report-dir", "reportDir", "where reports and failure dumps go", stringOpt{&o.ReportDir}},
		{"features", "features", "comma-separated feature labels the implementation claims, or one per repeated flag (default: what the profile and router can claim, contract/features.go)", featuresOpt{&o.Features}},
		{"openshift-release", "openshiftRelease", "the OpenShift release line whose upstream behaviour the specs assert: " + strings.Join(contract.ReleaseNames(), ", ") + " (default " + string(contract.DefaultRelease) + ", the newest; contract/releases.go)", releaseOpt{&o.OpenShiftRelease}},
		{"kubeconfig", "kubeconfig", "existing profile: the cluster's kubeconfig", stringOpt{&o.Kubeconfig}},
		{"http-addr", "httpAddr", "existing profile: host:port reaching the router's HTTP port", stringOpt{&o.HTTPAddr}},
		{"https-addr", "httpsAddr", "existing profile: host:port reaching the router's HTTPS port", stringOpt{&o.HTTPSAddr}},
		{"domain", "domain", "existing profile: the IngressController's apps domain", stringOpt{&o.Domain}},
		{"image-repository", "imageRepository", "existing profile: push the fixture images to this repository (registry/prefix) and deploy them by digest", stringOpt{&o.ImageRepository}},
		{"images-pushed", "imagesPushed", "existing profile: the fixture images are in -image-repository already (make push-images): only read their digests", boolOpt{&o.ImagesPushed}},
		{"router-image", "routerImage", "kind profile: a local Docker image to run as the router instead of the reference one (make e2e ROUTER_IMAGE=...)", stringOpt{&o.RouterImage}},
		{"node-image", "nodeImage", "kind profile: a prebuilt local kind node image to create the cluster from (no node image is built)", stringOpt{&o.NodeImage}},
		{"images", "images", "a manifest of prebuilt local images (images.json of make kit: name, ref, id): nothing is built, and an image missing or changed locally stops the run", stringOpt{&o.ImageManifest}},
		{"implementation-organization", "implementationOrganization", "who makes the router, in the report", stringOpt{&o.ImplementationOrganization}},
		{"implementation-project", "implementationProject", "the router's name in the report (default: reference-router, or the router image's repository)", stringOpt{&o.ImplementationProject}},
		{"implementation-url", "implementationURL", "where the router lives, in the report", stringOpt{&o.ImplementationURL}},
		{"implementation-contact", "implementationContact", "whom to ask about the router, in the report (repeatable)", listOpt{&o.ImplementationContact}},
		{"implementation-version", "implementationVersion", "the router's version in the report (default: the image's version label, or its tag)", stringOpt{&o.ImplementationVersion}},
		{"in-cluster", "inCluster", "existing profile, the suite running in a pod of the cluster: the pod's service account (unless -kubeconfig), routers reached through their router-internal Services (-http-addr and -https-addr default to the default one's), own IngressControllers published Private", boolOpt{&o.InCluster}},
		{"shard-addrs", "shardAddrs", "existing profile: node ports a load balancer fronts for sharded IngressControllers, at least one pair per parallel process (process i takes the i-th; given two per process, it alternates between the i-th and the (processes+i)-th, so a spec's new shard need not wait for the last one's router to stop), as <http node port>=<host:port>,<https node port>=<host:port>,<stats node port>, pairs space-separated or the flag repeated (make e2e-existing: the lab's SHARD_ADDRS); a spec's own IngressController publishes on its pair with the HostNetwork strategy and runs in parallel, instead of changing the default one Serial", shardAddrsOpt{&o.ShardAddrs}},
		{"allow-disruptive", "allowDisruptive", "existing profile: run the Disruptive specs, which change the default IngressController and the Ingress config while they run (each change is undone when the spec ends)", boolOpt{&o.AllowDisruptive}},
		{"fault", "fault", "kind profile, test-only (make mutants): the reference router and the platform stand-ins built with their fault points, with this fault of faults/catalogue switched on (none: no fault, the control); never with -certify or -router-image", stringOpt{&o.Fault}},
		{"certify", "certify", "a certification run: the rules of reports/certify.go (the whole claimed suite once, every wait at its certification value, a clean suite build, the implementation named) are checked before any spec", boolOpt{&o.Certify}},
	}
	// Every wait, from the one table (contract/timeouts.go).
	for _, f := range o.Timeouts.Fields() {
		var v setter = durationOpt{f.Duration}
		if f.Count != nil {
			v = intOpt{f.Count}
		}
		opts = append(opts, option{f.Flag, "timeouts." + f.Key, f.Usage, v})
	}
	return opts
}

// Effective lists every option's value by flag name, for the report.
func (o Options) Effective() map[string]string {
	out := map[string]string{}
	for _, opt := range o.table() {
		switch v := opt.value.(type) {
		case stringOpt:
			out[opt.flag] = *v.p
		case boolOpt:
			out[opt.flag] = strconv.FormatBool(*v.p)
		case intOpt:
			out[opt.flag] = strconv.Itoa(*v.p)
		case durationOpt:
			out[opt.flag] = v.p.String()
		case listOpt:
			out[opt.flag] = strings.Join(*v.p, ",")
		case releaseOpt:
			out[opt.flag] = string(*v.p)
		case featuresOpt:
			var s []string
			for _, f := range *v.p {
				s = append(s, string(f))
			}
			out[opt.flag] = strings.Join(s, ",")
		case shardAddrsOpt:
			out[opt.flag] = FormatShardAddrs(*v.p)
		}
	}
	return out
}

// Flags are the suite's options as command-line flags, with the -config
// file beneath them.
type Flags struct {
	configFile string
	// given holds each flag's values as typed, in order: applied over
	// the defaults and the file.
	given map[string][]string
}

// flagValue records a flag's raw text; the table's setter reads it later.
type flagValue struct {
	name  string
	given map[string][]string
	bool  bool
}

func (v flagValue) String() string     { return "" }
func (v flagValue) IsBoolFlag() bool   { return v.bool }
func (v flagValue) Set(s string) error { v.given[v.name] = append(v.given[v.name], s); return nil }

// RegisterFlags declares the suite's flags on fs.
func RegisterFlags(fs *flag.FlagSet) *Flags {
	fl := &Flags{given: map[string][]string{}}
	fs.StringVar(&fl.configFile, "config", "", "YAML file of options (flags given on the command line win)")
	d := DefaultOptions()
	defaults := d.Effective()
	for _, opt := range d.table() {
		usage := opt.usage
		if def := defaults[opt.flag]; def != "" && def != "false" {
			usage += " (default " + def + ")"
		}
		fs.Var(flagValue{name: opt.flag, given: fl.given, bool: opt.value.isBool()}, opt.flag, usage)
	}
	return fl
}

// Options are the defaults, then the -config file, then the flags given;
// call after the flags are parsed. Complete and Validate come after.
func (fl *Flags) Options() (Options, error) {
	o := DefaultOptions()
	table := o.table()
	if fl.configFile != "" {
		if err := applyFile(fl.configFile, table); err != nil {
			return Options{}, err
		}
	}
	for _, opt := range table {
		values, ok := fl.given[opt.flag]
		if !ok {
			continue
		}
		if l, isList := opt.value.(listOpt); isList {
			*l.p = nil // the flags replace the file's list
		}
		if l, isShards := opt.value.(shardAddrsOpt); isShards {
			*l.p = nil // the flags replace the file's pairs
		}
		if _, isFeatures := opt.value.(featuresOpt); isFeatures {
			// Repeated -features add up (-features a -features b is
			// -features a,b): where commas cannot pass, hydrophone's
			// --extra-args, each feature is a flag of its own.
			values = []string{strings.Join(values, ",")}
		}
		for _, v := range values {
			if err := opt.value.set(v); err != nil {
				return Options{}, fmt.Errorf("-%s %q: %w", opt.flag, v, err)
			}
		}
	}
	return o, nil
}

// applyFile sets every key of a -config file through the table; a key
// the table does not know is an error, so a typo is never ignored.
func applyFile(path string, table []option) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("-config: %w", err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("-config %s: %w", path, err)
	}
	values := map[string]any{}
	flatten("", doc, values)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		i := slices.IndexFunc(table, func(o option) bool { return o.file == key })
		if i < 0 {
			return fmt.Errorf("-config %s: unknown option %q", path, key)
		}
		opt := table[i]
		texts := []string{fmt.Sprint(values[key])}
		if list, ok := values[key].([]any); ok {
			texts = nil
			for _, item := range list {
				texts = append(texts, fmt.Sprint(item))
			}
			if _, isFeatures := opt.value.(featuresOpt); isFeatures {
				texts = []string{strings.Join(texts, ",")}
			}
		}
		for _, text := range texts {
			if err := opt.value.set(text); err != nil {
				return fmt.Errorf("-config %s: %s: %q: %w", path, key, text, err)
			}
		}
	}
	return nil
}

func flatten(prefix string, in map[string]any, out map[string]any) {
	for k, v := range in {
		if nested, ok := v.(map[string]any); ok {
			flatten(prefix+k+".", nested, out)
			continue
		}
		out[prefix+k] = v
	}
}

// Complete fills what the options leave to the profile: the features
// claimed by default are those of the table the profile and the router
// under test can claim (contract.Features' Needs).
func Complete(o *Options, caps Capabilities) {
	if len(o.Features) == 0 {
		for _, f := range caps.DefaultFeatures() {
			if info, _ := contract.LookupFeature(string(f)); contract.FeatureInRelease(info, o.OpenShiftRelease) {
				o.Features = append(o.Features, f)
			}
		}
	}
	if o.InCluster {
		if o.HTTPAddr == "" {
			o.HTTPAddr = InternalServiceAddr(contract.DefaultIngressController, 80)
		}
		if o.HTTPSAddr == "" {
			o.HTTPSAddr = InternalServiceAddr(contract.DefaultIngressController, 443)
		}
	}
}

// InternalServiceAddr is host:port of an IngressController's
// router-internal Service, as a pod of the cluster reaches it.
func InternalServiceAddr(ingressController string, port int) string {
	return fmt.Sprintf("%s.%s.svc:%d", contract.InternalServiceName(ingressController), contract.RouterNamespace, port)
}

// Validate checks completed options; every message names the flag.
func Validate(o Options) error {
	if _, err := contract.ParseRelease(string(o.OpenShiftRelease)); err != nil {
		return err
	}
	for _, f := range o.Features {
		info, ok := contract.LookupFeature(string(f))
		if !ok {
			return fmt.Errorf("-features: %q is no feature of the conformance table (contract/features.go)", f)
		}
		if !contract.FeatureInRelease(info, o.OpenShiftRelease) {
			return fmt.Errorf("-features: OpenShift %s has no %s (upstream shipped it in %s): drop the claim, or pick that release or a newer one with -openshift-release", o.OpenShiftRelease, f, info.OpenShiftSince)
		}
	}
	switch o.Profile {
	case KindProfile:
		if o.ImageRepository != "" || o.AllowDisruptive || o.InCluster {
			return errors.New("-image-repository, -allow-disruptive and -in-cluster apply to the existing profile only: the kind profile loads its images and owns its cluster")
		}
		if len(o.ShardAddrs) > 0 {
			return errors.New("-shard-addrs applies to the existing profile only: the kind profile maps its own shard ports")
		}
		if err := validateFault(o); err != nil {
			return err
		}
	case ExistingProfile:
		if o.Fault != "" {
			return errors.New("-fault applies to the kind profile only: the fault build is the suite's reference router and stand-ins")
		}
		if o.RouterImage != "" || o.NodeImage != "" {
			return errors.New("-router-image and -node-image apply to the kind profile only: on an existing cluster the router is already deployed")
		}
		if o.ImagesPushed && o.ImageRepository == "" {
			return errors.New("-images-pushed needs -image-repository: where were they pushed?")
		}
		if o.InCluster && o.Domain == "" {
			return errors.New("-in-cluster needs -domain, the default IngressController's apps domain")
		}
		if o.InCluster && o.ImageManifest == "" && !o.ImagesPushed {
			return errors.New("-in-cluster builds and pushes no image (a pod has no Docker): give -images (the conformance image carries one) or -image-repository with -images-pushed")
		}
		if o.InCluster && len(o.ShardAddrs) > 0 {
			return errors.New("-shard-addrs and -in-cluster: inside the cluster a spec's own IngressController is published Private and reached through its Service; give one or the other")
		}
		if err := checkShardAddrs(o.ShardAddrs); err != nil {
			return err
		}
		if !o.InCluster && (o.Kubeconfig == "" || o.HTTPAddr == "" || o.HTTPSAddr == "" || o.Domain == "") {
			return errors.New("profile existing needs -kubeconfig, -http-addr, -https-addr and -domain (or -in-cluster and -domain inside the cluster)")
		}
	default:
		return fmt.Errorf("-profile %q: want %s or %s", o.Profile, KindProfile, ExistingProfile)
	}
	if o.Timeouts.Consecutive < 1 {
		return errors.New("-consecutive must be at least 1")
	}
	for _, opt := range o.table() {
		if d, ok := opt.value.(durationOpt); ok && *d.p <= 0 {
			return fmt.Errorf("-%s must be positive", opt.flag)
		}
	}
	return nil
}

// validateFault: a fault build judges the suite's own router and
// stand-ins, never a router that is certified or any other image.
func validateFault(o Options) error {
	if o.Fault == "" {
		return nil
	}
	switch {
	case o.Certify:
		return errors.New("-fault and -certify: a certification judges the images as shipped, never a test-only fault build")
	case o.RouterImage != "" || o.ImageManifest != "":
		return errors.New("-fault builds the reference router and the stand-ins with their fault points: it takes no -router-image and no -images")
	case o.Fault == NoFault:
		return nil
	}
	cat, err := catalogue.Load()
	if err != nil {
		return err
	}
	for _, f := range catalogue.All(cat) {
		if f.ID == o.Fault {
			return nil
		}
	}
	return fmt.Errorf("-fault %q is no fault of faults/catalogue (or %s for the control)", o.Fault, NoFault)
}

// shardAddrsForm is what one pair of -shard-addrs looks like.
const shardAddrsForm = "<http node port>=<host:port>,<https node port>=<host:port>,<stats node port>"

// ParseShardAddrs reads -shard-addrs: pairs separated by spaces, each
// <http node port>=<host:port>,<https node port>=<host:port>,<stats node
// port> (the ports a shard binds on its node, the load balancer's
// addresses for the first two).
func ParseShardAddrs(s string) ([]ShardPorts, error) {
	var out []ShardPorts
	for _, pair := range strings.Fields(s) {
		fields := strings.Split(pair, ",")
		if len(fields) != 3 {
			return nil, fmt.Errorf("pair %q: want %s", pair, shardAddrsForm)
		}
		var p ShardPorts
		for i, dst := range []struct {
			port *int32
			addr *string
		}{{&p.HTTPPort, &p.HTTPAddr}, {&p.HTTPSPort, &p.HTTPSAddr}, {&p.StatsPort, nil}} {
			port, addr, hasAddr := strings.Cut(fields[i], "=")
			if hasAddr != (dst.addr != nil) {
				return nil, fmt.Errorf("pair %q: want %s", pair, shardAddrsForm)
			}
			n, err := strconv.ParseInt(port, 10, 32)
			if err != nil || n < 1 || n > 65535 {
				return nil, fmt.Errorf("pair %q: %q is no port number", pair, port)
			}
			*dst.port = int32(n)
			if dst.addr == nil {
				continue
			}
			if _, p, err := net.SplitHostPort(addr); err != nil || p == "" {
				return nil, fmt.Errorf("pair %q: %q is no host:port", pair, addr)
			}
			*dst.addr = addr
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no pair: want %s, pairs space-separated", shardAddrsForm)
	}
	return out, nil
}

// FormatShardAddrs is pairs as -shard-addrs reads them.
func FormatShardAddrs(pairs []ShardPorts) string {
	var s []string
	for _, p := range pairs {
		s = append(s, fmt.Sprintf("%d=%s,%d=%s,%d", p.HTTPPort, p.HTTPAddr, p.HTTPSPort, p.HTTPSAddr, p.StatsPort))
	}
	return strings.Join(s, " ")
}

// checkShardAddrs: every node port of the pairs is bound on the nodes by
// one shard, so no two may be the same (nor the default router's 80 and
// 443), and every pair reaches its shard at addresses of its own.
func checkShardAddrs(pairs []ShardPorts) error {
	ports := map[int32]bool{80: true, 443: true}
	addrs := map[string]bool{}
	for _, p := range pairs {
		for _, port := range []int32{p.HTTPPort, p.HTTPSPort, p.StatsPort} {
			if ports[port] {
				return fmt.Errorf("-shard-addrs: node port %d twice (or the default router's 80 or 443): each shard binds its own ports on its node", port)
			}
			ports[port] = true
		}
		for _, a := range []string{p.HTTPAddr, p.HTTPSAddr} {
			if addrs[a] {
				return fmt.Errorf("-shard-addrs: address %s twice: each shard port needs a frontend of its own", a)
			}
			addrs[a] = true
		}
	}
	return nil
}
