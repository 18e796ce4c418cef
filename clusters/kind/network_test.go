package kind

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// fakeChain is DOCKER-USER as iptables -C/-I/-D see it.
type fakeChain struct{ rules []string }

func (c *fakeChain) run(_ context.Context, args ...string) (string, error) {
	rule := strings.Join(args[2:], " ")
	i := slices.Index(c.rules, rule)
	switch args[0] {
	case "-C":
		if i < 0 {
			return "", errors.New("no such rule")
		}
	case "-I":
		c.rules = append([]string{rule}, c.rules...)
	case "-D":
		c.rules = slices.Delete(c.rules, i, i+1)
	}
	return "", nil
}

func TestTheSealLetsThroughOnlyWhatStaysOnTheBridge(t *testing.T) {
	chain := &fakeChain{}
	n := &Network{Name: "lab-net", Subnet: netip.MustParsePrefix("172.20.0.0/16"), Bridge: "br-0123456789ab", iptables: chain.run}
	for range 2 {
		if err := n.Seal(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(chain.rules) != 2 {
		t.Fatalf("rules %q, want the pass and the drop once each", chain.rules)
	}
	if !strings.HasPrefix(chain.rules[0], "-i br-0123456789ab -o br-0123456789ab ") || !strings.HasSuffix(chain.rules[0], "-j RETURN") {
		t.Errorf("first rule %q: want the pass for what stays on the bridge, before the drop", chain.rules[0])
	}
	if !strings.HasPrefix(chain.rules[1], "-s 172.20.0.0/16 ! -d 172.20.0.0/16 ") || !strings.HasSuffix(chain.rules[1], "-j DROP") {
		t.Errorf("second rule %q: want the drop of what leaves the network", chain.rules[1])
	}
	if !n.Sealed(context.Background()) {
		t.Error("not Sealed after Seal")
	}
}
