// Command cpu measures where the machine's CPU goes during a whole
// conformance run on the kind profile: the suite run as make e2e runs it
// (the run path, PROCS processes) while the kind node's cgroups are read
// (cgroup v1 cpuacct: a removed pod's usage stays counted in its parents).
// It splits the node's CPU into its pods (grouped by what they are: the
// control plane, the routers, each fixture) and what is not a pod (the
// container runtime and the kubelet: the cost of starting and stopping
// containers), beside the host outside the cluster. Writes <out>.json and
// <out>.md. The cluster is created (or reused) first and deleted at the
// end unless -keep.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/router-conformance/suite/bench/warm"
	"github.com/router-conformance/suite/runner"
)

func main() {
	out := flag.String("out", "_output/bench-cpu", "output prefix")
	cluster := flag.String("cluster-name", "router-conformance", "kind cluster name")
	keep := flag.Bool("keep", false, "keep the cluster afterwards")
	procs := flag.Int("procs", 4, "Ginkgo processes, as make e2e's PROCS")
	flag.Parse()
	if err := run(*out, *cluster, *keep, *procs); err != nil {
		log.Fatal(err)
	}
}

// cpuacctRoot is cgroup v1's CPU accounting hierarchy.
const cpuacctRoot = "/sys/fs/cgroup/cpuacct"

// samplePeriod is how often the pods' cgroups are read: a pod that lives
// less is counted in the node's pods, not in its group.
const samplePeriod = 5 * time.Second

// namesEvery is how many samples pass between two reads of the pods'
// names (each is a kubectl call in the node, itself CPU).
const namesEvery = 6

func run(out, cluster string, keep bool, procs int) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	reportDir, err := filepath.Abs(filepath.Join(filepath.Dir(out), "bench-cpu-run"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(cpuacctRoot, "cpuacct.usage")); err != nil {
		return fmt.Errorf("this benchmark reads cgroup v1 CPU accounting (%s) and this host has none: %v", cpuacctRoot, err)
	}
	down, err := warm.Up(cluster, keep)
	if err != nil {
		return err
	}
	defer down()
	node := cluster + "-control-plane"
	id, err := exec.Command("docker", "inspect", "-f", "{{.Id}}", node).Output()
	if err != nil {
		return fmt.Errorf("docker inspect %s: %w", node, err)
	}
	nodeDir := filepath.Join(cpuacctRoot, "docker", strings.TrimSpace(string(id)))
	if _, err := usage(nodeDir); err != nil {
		return fmt.Errorf("the node container's CPU accounting: %w", err)
	}
	podsDir := findPodsDir(nodeDir)
	if podsDir == "" {
		return fmt.Errorf("no kubepods cgroup under %s", nodeDir)
	}
	s := &sampler{node: node, nodeDir: nodeDir, podsDir: podsDir, peak: map[string]int64{}, names: map[string]podName{}}
	before, err := s.totals()
	if err != nil {
		return err
	}
	s.readPods()
	s.baseline = maps.Clone(s.peak)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.loop(ctx) }()
	start := time.Now()
	status := warm.RunSuite(root, cluster, procs, reportDir)
	wall := time.Since(start)
	stop()
	<-done
	after, err := s.totals()
	if err != nil {
		return err
	}
	res := s.result(before, after, wall)
	if err := write(out, res); err != nil {
		return err
	}
	if status != runner.ExitPassed {
		return fmt.Errorf("the suite exited %d: the figures are written, but they are not those of a passing run", status)
	}
	return nil
}

// podName is what a pod is, read from the API while it lives.
type podName struct{ Namespace, Name, App, Owner, ConfigHash string }

type sampler struct {
	node, nodeDir string
	podsDir       string           // the node's kubepods cgroup
	peak          map[string]int64 // pod UID -> its cgroup's usage when last read (ns)
	baseline      map[string]int64 // the pods older than the run: their usage at its start
	names         map[string]podName
}

// totals are the cumulative usages (ns) of the machine, every container,
// the node and its pods.
type totals struct{ Machine, Containers, Node, Pods int64 }

func (s *sampler) totals() (totals, error) {
	var t totals
	var err error
	if t.Machine, err = usage(cpuacctRoot); err != nil {
		return t, err
	}
	if t.Node, err = usage(s.nodeDir); err != nil {
		return t, err
	}
	dirs, _ := filepath.Glob(filepath.Join(cpuacctRoot, "docker", "*", "cpuacct.usage"))
	for _, d := range dirs {
		if n, err := usage(filepath.Dir(d)); err == nil {
			t.Containers += n
		}
	}
	t.Pods, err = usage(s.podsDir)
	return t, err
}

// findPodsDir is the node's kubepods cgroup (systemd driver: kubelet.slice/
// kubelet-kubepods.slice in kind; cgroupfs: kubepods), "" if none.
func findPodsDir(nodeDir string) string {
	var found string
	filepath.WalkDir(nodeDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if n := d.Name(); n == "kubepods" || strings.HasSuffix(n, "-kubepods.slice") || n == "kubepods.slice" {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// podCgroup matches a pod's cgroup: pod<uid> (cgroupfs) or
// ...-pod<uid with underscores>.slice (systemd).
var podCgroup = regexp.MustCompile(`pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}|[0-9a-f]{32})(\.slice)?$`)

func (s *sampler) loop(ctx context.Context) {
	tick := time.NewTicker(samplePeriod)
	defer tick.Stop()
	for i := 0; ; i++ {
		s.readPods()
		if i%namesEvery == 0 {
			s.readNames()
		}
		select {
		case <-ctx.Done():
			s.readPods()
			s.readNames()
			return
		case <-tick.C:
		}
	}
}

func (s *sampler) readPods() {
	filepath.WalkDir(s.podsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		m := podCgroup.FindStringSubmatch(d.Name())
		if m == nil {
			return nil
		}
		if n, err := usage(p); err == nil {
			uid := strings.ReplaceAll(m[1], "_", "-")
			s.peak[uid] = max(s.peak[uid], n)
		}
		return filepath.SkipDir
	})
}

// readNames reads every pod's identity from the API server in the node
// (a static pod's cgroup carries its config hash, not its mirror's UID).
func (s *sampler) readNames() {
	tmpl := `{range .items[*]}{.metadata.uid}{"\t"}{.metadata.namespace}{"\t"}{.metadata.name}{"\t"}{.metadata.labels.app}{"\t"}{.metadata.ownerReferences[0].kind}{"\t"}{.metadata.annotations.kubernetes\.io/config\.hash}{"\n"}{end}`
	outb, err := exec.Command("docker", "exec", s.node, "kubectl", "--kubeconfig", "/etc/kubernetes/admin.conf", "get", "pods", "-A", "-o", "jsonpath="+tmpl).Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(outb), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			continue
		}
		n := podName{Namespace: f[1], Name: f[2], App: f[3], Owner: f[4], ConfigHash: f[5]}
		s.names[f[0]] = n
		if n.ConfigHash != "" {
			s.names[n.ConfigHash] = n
		}
	}
}

// group is what a pod is, for the figures: the control plane's static
// pods by component, a workload's pods by its name, a spec's fixtures by
// their app label.
func group(n podName, node string) string {
	switch {
	case n.ConfigHash != "":
		return n.Namespace + "/" + strings.TrimSuffix(n.Name, "-"+node)
	case strings.HasPrefix(n.Namespace, "openshift-") || n.Namespace == "kube-system":
		name := trimGenerated(n.Name, n.Owner)
		if strings.HasPrefix(name, "router-") && name != "router-default" {
			name = "router-<shard>"
		}
		return n.Namespace + "/" + name
	case n.App != "":
		return "spec fixture " + n.App
	}
	return "spec fixture " + trimGenerated(n.Name, n.Owner)
}

// trimGenerated drops the suffixes a controller adds to its pods' names.
func trimGenerated(name, owner string) string {
	parts := strings.Split(name, "-")
	switch {
	case owner == "ReplicaSet" && len(parts) > 2:
		return strings.Join(parts[:len(parts)-2], "-")
	case (owner == "DaemonSet" || owner == "Job" || owner == "StatefulSet") && len(parts) > 1:
		return strings.Join(parts[:len(parts)-1], "-")
	}
	return name
}

type share struct {
	What       string  `json:"what"`
	Pods       int     `json:"pods,omitempty"`
	CPUSeconds float64 `json:"cpuSeconds"`
	Percent    float64 `json:"percentOfMachine"`
}

type result struct {
	Date        string  `json:"date"`
	WallSeconds float64 `json:"wallSeconds"`
	Cores       int     `json:"cores"`
	Where       []share `json:"where"`
	PodGroups   []share `json:"podGroups"`
}

func (s *sampler) result(before, after totals, wall time.Duration) result {
	sec := func(ns int64) float64 { return float64(ns) / 1e9 }
	machine := sec(after.Machine - before.Machine)
	pct := func(v float64) float64 { return 100 * v / machine }
	mk := func(what string, pods int, v float64) share {
		return share{What: what, Pods: pods, CPUSeconds: v, Percent: pct(v)}
	}
	node, pods := sec(after.Node-before.Node), sec(after.Pods-before.Pods)
	r := result{Date: time.Now().UTC().Format(time.RFC3339), WallSeconds: wall.Seconds(), Cores: cores()}
	r.Where = []share{
		mk("the machine", 0, machine),
		mk("the kind node", 0, node),
		mk("its pods", 0, pods),
		mk("not a pod: the container runtime, its shims, the kubelet (starting and stopping containers)", 0, node-pods),
		mk("outside every container (the suite's processes, Docker)", 0, machine-sec(after.Containers-before.Containers)),
	}
	byGroup, count := map[string]float64{}, map[string]int{}
	var seen float64
	for uid, peak := range s.peak {
		g := "pods never named (gone before a name was read)"
		if n, ok := s.names[uid]; ok {
			g = group(n, s.node)
		}
		// A pod older than the run counts only what it used during it.
		v := sec(peak)
		if b, ok := s.baseline[uid]; ok {
			v = sec(peak - b)
		}
		byGroup[g] += v
		count[g]++
		seen += v
	}
	for g, v := range byGroup {
		r.PodGroups = append(r.PodGroups, mk(g, count[g], v))
	}
	sort.Slice(r.PodGroups, func(i, j int) bool { return r.PodGroups[i].CPUSeconds > r.PodGroups[j].CPUSeconds })
	r.PodGroups = append(r.PodGroups, mk(fmt.Sprintf("pods that lived less than a sample (%s)", samplePeriod), 0, max(0, pods-seen)))
	return r
}

func write(out string, r result) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(out+".json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# Where the CPU goes during make e2e (%s)\n\nThe whole suite on the kind profile, %.0f s of wall time on %d cores (%.0f CPU-seconds available).\n\n| where | CPU-seconds | share of the machine's use |\n|---|---|---|\n",
		r.Date[:10], r.WallSeconds, r.Cores, r.WallSeconds*float64(r.Cores))
	for _, s := range r.Where {
		fmt.Fprintf(&md, "| %s | %.0f | %.0f%% |\n", s.What, s.CPUSeconds, s.Percent)
	}
	md.WriteString("\nThe node's pods by what they are (their containers' own CPU):\n\n| pods | how many | CPU-seconds | share of the machine's use |\n|---|---|---|---|\n")
	for _, s := range r.PodGroups {
		fmt.Fprintf(&md, "| %s | %d | %.0f | %.0f%% |\n", s.What, s.Pods, s.CPUSeconds, s.Percent)
	}
	fmt.Print(md.String())
	return os.WriteFile(out+".md", []byte(md.String()), 0o644)
}

// usage is a cgroup's cumulative CPU time (ns).
func usage(dir string) (int64, error) {
	b, err := os.ReadFile(filepath.Join(dir, "cpuacct.usage"))
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

func cores() int { return runtime.NumCPU() }
