package framework

import (
	"reflect"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
)

func TestMoreProcessesThanShardPortsAreRefused(t *testing.T) {
	kind := Capabilities{Profile: KindProfile, OwnIngressControllers: true, MaxParallel: 4}
	if err := kind.CheckParallelism(4); err != nil {
		t.Errorf("4 processes on the kind profile: %v", err)
	}
	err := kind.CheckParallelism(5)
	if err == nil || !strings.Contains(err.Error(), "run with PROCS=4 or fewer") {
		t.Errorf("5 processes on the kind profile: want the PROCS advice, got %v", err)
	}
	// A profile without own IngressControllers runs those specs Serial on
	// the default IngressController: any parallelism will do.
	if err := (Capabilities{Profile: ExistingProfile}).CheckParallelism(16); err != nil {
		t.Errorf("existing profile: %v", err)
	}
}

// The decorator goes into Entry, It and Describe arguments: Ginkgo takes
// a non-empty slice of decorations as decorations, but an empty slice as
// a parameter of a table entry's body (which then panics: too many
// parameters). Either way it is a non-empty slice of decorations.
func TestOwnIngressControllerDecoratorIsAlwaysADecoration(t *testing.T) {
	for _, caps := range []Capabilities{{Profile: KindProfile, OwnIngressControllers: true}, {Profile: ExistingProfile}} {
		d := New(Options{}, caps).OwnIngressControllerDecorator()
		if len(d) == 0 {
			t.Errorf("%s profile: an empty decorator, which a table Entry passes to its body", caps.Profile)
		}
		for _, x := range d {
			if typ := reflect.TypeOf(x); typ != reflect.TypeOf(ginkgo.Labels{}) && typ != reflect.TypeOf(ginkgo.Serial) {
				t.Errorf("%s profile: %T %v is no decoration", caps.Profile, x, x)
			}
		}
	}
}

// A process's shards alternate between its two pairs, named after the
// pair, where the profile has two per process (outside a parallel run:
// one process); with one pair each, every shard is the process's own.
func TestShardsAlternateBetweenTwoPairsPerProcess(t *testing.T) {
	pair := func(i int32) ShardPorts {
		return ShardPorts{HTTPPort: 10080 + i, HTTPSPort: 10443 + i, StatsPort: 11936 + i}
	}
	type shard struct {
		name  string
		ports ShardPorts
		ok    bool
	}
	turns := func(f *Framework) []shard {
		var out []shard
		for range 3 {
			name, ports, ok := f.nextShard()
			out = append(out, shard{name, ports, ok})
		}
		return out
	}
	for _, c := range []struct {
		name string
		env  *Env
		want []shard
	}{
		{"two pairs", &Env{Shards: []ShardPorts{pair(0), pair(1)}}, []shard{{"shard-1", pair(0), true}, {"shard-2", pair(1), true}, {"shard-1", pair(0), true}}},
		{"one pair", &Env{Shards: []ShardPorts{pair(0)}}, []shard{{"shard-1", pair(0), true}, {"shard-1", pair(0), true}, {"shard-1", pair(0), true}}},
		{"inside the cluster, no ports", &Env{PrivateShards: true}, []shard{{"shard-1", ShardPorts{}, false}, {"shard-2", ShardPorts{}, false}, {"shard-1", ShardPorts{}, false}}},
		{"no shards", &Env{}, []shard{{"shard-1", ShardPorts{}, false}, {"shard-1", ShardPorts{}, false}, {"shard-1", ShardPorts{}, false}}},
	} {
		f := New(Options{}, Capabilities{})
		f.Env = c.env
		if got := turns(f); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
