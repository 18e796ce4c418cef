package contract

import (
	"strings"
	"testing"
)

func TestAReleaseTheSuiteDoesNotTrackIsRefusedWithTheList(t *testing.T) {
	for _, r := range ReleaseNames() {
		if got, err := ParseRelease(r); err != nil || string(got) != r {
			t.Errorf("ParseRelease(%q) = %q, %v", r, got, err)
		}
	}
	_, err := ParseRelease("4.19")
	if err == nil || err.Error() != "no release line this suite tracks: pick one of 4.20, 4.21, 4.22, 4.23, 5.0, 5.1, master (the line your customers run)" {
		t.Errorf("ParseRelease(4.19): %v, want the tracked lines listed", err)
	}
	if _, err := ParseRelease(string(DefaultRelease)); err != nil {
		t.Errorf("the default release is not tracked: %v", err)
	}
	if last := Releases[len(Releases)-2].Release; DefaultRelease != last {
		t.Errorf("DefaultRelease is %s, the newest release line is %s", DefaultRelease, last)
	}
}

// The redirect spec's expectation per release: the Host's port kept
// before 4.22 (release-4.20 and 4.21 lack openshift/router 823a6fd5f),
// dropped from it on.
func TestAGatedExpectationFollowsTheRelease(t *testing.T) {
	want := map[Release]string{"4.20": "kept", "4.21": "kept", "4.22": "dropped", "4.23": "dropped", "5.0": "dropped", "5.1": "dropped", "master": "dropped"}
	for _, r := range Releases {
		got, err := ByRelease(r.Release, ChangeRedirectDropsHostPort, "kept", "dropped")
		if err != nil || got != want[r.Release] {
			t.Errorf("%s: %q, %v; want %q", r.Release, got, err, want[r.Release])
		}
	}
	if _, err := ByRelease(DefaultRelease, Change("no-such-change"), 1, 2); err == nil {
		t.Error("an unknown change gave an expectation")
	}
	for _, c := range Changes {
		if _, err := ParseRelease(string(c.Since)); err != nil || c.Commit == "" || c.Source == "" || c.Before == "" || c.After == "" {
			t.Errorf("change %s: every field is needed, its release tracked (%v)", c.Change, err)
		}
	}
}

func TestASpecNamingAChangeMissingFromTheTableIsRefused(t *testing.T) {
	base := []string{string(FeatureRouter), SpecIDLabel("router/x")}
	if p := CheckSpecLabels(append(base, ChangeLabelPrefix+string(ChangeRedirectDropsHostPort))); len(p) != 0 {
		t.Errorf("a known change: %v", p)
	}
	p := CheckSpecLabels(append(base, ChangeLabelPrefix+"redirect-keeps-everything"))
	if len(p) != 1 || !strings.Contains(p[0], `names behaviour change "redirect-keeps-everything", which is not in contract/releases.go's Changes`) {
		t.Errorf("an unknown change: %v", p)
	}
}

func TestAFeatureALineLacksIsNotInIt(t *testing.T) {
	f := FeatureInfo{Feature: FeatureHeaderActions, OpenShiftSince: "4.22"}
	for r, want := range map[Release]bool{"4.20": false, "4.21": false, "4.22": true, "master": true} {
		if got := FeatureInRelease(f, r); got != want {
			t.Errorf("%s since 4.22 in %s: %v", f.Feature, r, got)
		}
	}
}
