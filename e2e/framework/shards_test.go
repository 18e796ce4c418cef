package framework

import (
	"reflect"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
)

func TestMoreProcessesThanShardPortsAreRefused(t *testing.T) {
	kind := New(Options{}, Capabilities{Profile: KindProfile, OwnIngressControllers: true, MaxParallel: 4})
	if err := kind.CheckParallelism(4); err != nil {
		t.Errorf("4 processes on the kind profile: %v", err)
	}
	err := kind.CheckParallelism(5)
	if err == nil || !strings.Contains(err.Error(), "run with PROCS=4 or fewer") {
		t.Errorf("5 processes on the kind profile: want the PROCS advice, got %v", err)
	}
	// A profile without own IngressControllers runs those specs Serial on
	// the default IngressController: any parallelism will do.
	if err := New(Options{}, Capabilities{Profile: ExistingProfile}).CheckParallelism(16); err != nil {
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
