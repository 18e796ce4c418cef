package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// fixtureFeatures are the features the fixture's runs claim and ran.
var fixtureFeatures = []contract.Feature{contract.FeatureRouter, contract.FeatureHSTS, contract.FeatureHeaderActions,
	contract.FeatureClientTLS, contract.FeatureSmoke}

// The specs of the fixture's troubles, by ID.
const (
	flakySpec contract.SpecID = "client-tls/revoked-refused"
	failSpec  contract.SpecID = "hsts/edge-header-set"
	onceSpec  contract.SpecID = "router/edge-served"
)

// fixtureHistory is three nights: passed; failed (an HSTS spec, a flake of
// client TLS); passed with two flakes. Delegation is not claimed.
func fixtureHistory() []reports.HistoryEntry {
	night := func(day int, result reports.Result, reason string, seconds float64) reports.HistoryEntry {
		e := reports.HistoryEntry{Date: time.Date(2026, 11, day, 2, 0, 0, 0, time.UTC), SuiteVersion: "v0.2.0",
			SuiteCommit: fmt.Sprintf("%07dabcdef", day), RouterImage: "router-conformance/router:0123", Implementation: "reference-router v0.2.0",
			Result: result, Reason: reason, Seconds: seconds}
		for i, f := range fixtureFeatures {
			e.Features = append(e.Features, reports.FeatureHistory{Feature: f, Claimed: true, Result: reports.Passed,
				Passed: 4 + i, Seconds: float64(30*(i+1)) + float64(day)})
		}
		e.Features = append(e.Features, reports.FeatureHistory{Feature: contract.FeatureDelegation, Result: reports.Unsupported, Skipped: 3})
		return e
	}
	feature := func(e *reports.HistoryEntry, f contract.Feature) *reports.FeatureHistory {
		for i := range e.Features {
			if e.Features[i].Feature == f {
				return &e.Features[i]
			}
		}
		panic(f)
	}
	first := night(21, reports.Passed, "", 150)
	second := night(22, reports.Failed, "features failed: hsts", 171)
	hsts := feature(&second, contract.FeatureHSTS)
	hsts.Passed, hsts.Failed, hsts.Result, hsts.FailedSpecs = hsts.Passed-1, 1, reports.Failed, []contract.SpecID{failSpec}
	tls := feature(&second, contract.FeatureClientTLS)
	tls.Flaked, tls.FlakedSpecs = 1, []contract.SpecID{flakySpec}
	second.Flaked = 1
	third := night(23, reports.Passed, "", 162)
	tls = feature(&third, contract.FeatureClientTLS)
	tls.Flaked, tls.FlakedSpecs = 1, []contract.SpecID{flakySpec}
	routes := feature(&third, contract.FeatureRouter)
	routes.Flaked, routes.FlakedSpecs = 1, []contract.SpecID{onceSpec}
	third.Flaked = 2
	return []reports.HistoryEntry{first, second, third}
}

// writeHistory writes entries as the suite does, one line each.
func writeHistory(t *testing.T, entries []reports.HistoryEntry) string {
	t.Helper()
	dir := t.TempDir()
	for _, e := range entries {
		if err := reports.AppendHistory(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, reports.HistoryJSONL)
}

func TestPageDataSeriesPerFeatureAndTheFlakiestSpecs(t *testing.T) {
	// Out of order across files, and a run carried in both: read once.
	h := fixtureHistory()
	history, err := reports.ReadHistory(writeHistory(t, []reports.HistoryEntry{h[2], h[0]}), writeHistory(t, []reports.HistoryEntry{h[1], h[2]}))
	if err != nil || len(history) != 3 {
		t.Fatalf("%v: %d runs", err, len(history))
	}
	d := PageData(history)
	var labels []string
	for _, r := range d.Runs {
		labels = append(labels, r.Label)
	}
	if want := []string{"2026-11-21 0000021", "2026-11-22 0000022", "2026-11-23 0000023"}; !slices.Equal(labels, want) {
		t.Errorf("run labels %v, want %v", labels, want)
	}
	var features []contract.Feature
	for _, f := range d.Features {
		features = append(features, f.Feature)
	}
	if want := []contract.Feature{contract.FeatureRouter, contract.FeatureHSTS, contract.FeatureHeaderActions, contract.FeatureClientTLS, contract.FeatureSmoke}; !slices.Equal(features, want) {
		t.Errorf("features %v, want %v (table order, unclaimed left out)", features, want)
	}
	hsts := d.Features[1]
	if got := []float64{*hsts.PassRate[0], *hsts.PassRate[1], *hsts.PassRate[2]}; !slices.Equal(got, []float64{100, 80, 100}) {
		t.Errorf("hsts pass rate %v", got)
	}
	if got := []float64{*hsts.Seconds[0], *hsts.Seconds[1], *hsts.Seconds[2]}; !slices.Equal(got, []float64{81, 82, 83}) {
		t.Errorf("hsts seconds %v", got)
	}
	want := []SpecTrouble{{flakySpec, contract.FeatureClientTLS, 2, 0}, {onceSpec, contract.FeatureRouter, 1, 0}, {failSpec, contract.FeatureHSTS, 0, 1}}
	if !slices.Equal(d.Flakiest, want) {
		t.Errorf("flakiest %+v\nwant %+v", d.Flakiest, want)
	}
	// The page's data name each spec by its ID.
	if j, err := json.Marshal(d.Flakiest[0]); err != nil || string(j) != `{"id":"client-tls/revoked-refused","feature":"client-tls","flaked":2,"failed":0}` {
		t.Errorf("flakiest as JSON: %s %v", j, err)
	}
	// Two runs a day are told apart by their time.
	late := h[0]
	late.Date = late.Date.Add(20 * time.Hour)
	if d := PageData([]reports.HistoryEntry{h[0], late}); d.Runs[1].Label != "2026-11-21 22:00 0000021" {
		t.Errorf("label %q", d.Runs[1].Label)
	}
}

func TestThePageIsSelfContained(t *testing.T) {
	page, err := Render("trend", fixtureHistory())
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	if !strings.Contains(p, "/*!\n * Chart.js v"+ChartJSVersion+"\n") || !strings.Contains(p, "Permission is hereby granted") {
		t.Errorf("the page lacks Chart.js's license header or its license")
	}
	if strings.Contains(p, "sourceMappingURL") {
		t.Errorf("the page points at a source map")
	}
	// Nothing is loaded from elsewhere: no src or href attribute, no
	// link element, and a policy that forbids any fetch.
	if m := regexp.MustCompile(`(?i)<[a-z]+[^>]*\s(src|href)\s*=`).FindString(p); m != "" {
		t.Errorf("the page loads %s", m)
	}
	if strings.Contains(p, "<link") || !strings.Contains(p, `content="default-src 'none'; script-src 'unsafe-inline'`) {
		t.Errorf("the page may fetch")
	}
	if !strings.Contains(p, `<script type="application/json" id="trend-data">{"runs":[{"label":"2026-11-21 0000021"`) {
		t.Errorf("the data is not inlined as JSON")
	}
	// The pass rates as a table too: equal rates hide one another's lines.
	for _, cell := range []string{`<td class="failed" title="4 passed, 1 failed, 0 flaked, 0 skipped">80% (1 failed)</td>`,
		`<td class="flaked" title="7 passed, 0 failed, 1 flaked, 0 skipped">100% (1 flaked)</td>`} {
		if !strings.Contains(p, cell) {
			t.Errorf("the table lacks %s", cell)
		}
	}
}

// chromium finds Debian's chromium; as root it installs it
// (clusters/host/ensure-packages.sh, as make test does for haproxy), else
// the test skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("chromium is not installed and this is not root: install Debian's chromium (apt-get install chromium) to draw the trend page in a real browser")
	}
	cmd := exec.Command("../../../clusters/host/ensure-packages.sh", "chromium=chromium")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("installing chromium: %v\n%s", err, out)
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium was installed but is not on PATH: %v", err)
	}
	return p
}

// headless runs chromium on the page with the given action flags.
func headless(t *testing.T, bin, page string, action ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1200,1600"}, action...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(action, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// drawn is one chart as the page lists it in #series.
type drawn struct {
	Chart    string   `json:"chart"`
	Type     string   `json:"type"`
	Width    float64  `json:"width"`
	Height   float64  `json:"height"`
	Labels   []string `json:"labels"`
	Datasets []struct {
		Label  string `json:"label"`
		Points int    `json:"points"`
	} `json:"datasets"`
}

func TestThePageDrawsEveryFeatureInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "reports", "trend.html")
	history, err := reports.ReadHistory(writeHistory(t, fixtureHistory()))
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := Render("Router conformance: nightly trend", history)
	if err == nil {
		err = write(page, rendered)
	}
	if err != nil {
		t.Fatal(err)
	}

	dom := string(headless(t, bin, page, "--dump-dom"))
	if !strings.Contains(dom, `data-rendered="true"`) {
		t.Fatalf("the charts never rendered; the DOM:\n%.3000s", dom)
	}
	m := regexp.MustCompile(`(?s)<pre id="series"[^>]*>(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no #series in the DOM:\n%.3000s", dom)
	}
	var charts []drawn
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &charts); err != nil {
		t.Fatalf("#series: %v\n%s", err, m[1])
	}
	byID := map[string]drawn{}
	for _, c := range charts {
		byID[c.Chart] = c
		if c.Width < 300 || c.Height < 200 {
			t.Errorf("chart %s is %vx%v: not laid out", c.Chart, c.Width, c.Height)
		}
	}
	if len(charts) != 4 {
		t.Errorf("%d charts drawn, want 4: %+v", len(charts), charts)
	}
	for _, id := range []string{"pass-rate", "seconds"} {
		c := byID[id]
		var got []string
		for _, d := range c.Datasets {
			got = append(got, d.Label)
			if d.Points != 3 {
				t.Errorf("%s: %s has %d points, want one per run (3)", id, d.Label, d.Points)
			}
		}
		var want []string
		for _, f := range fixtureFeatures {
			want = append(want, string(f))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s draws %v, want every feature that ran: %v", id, got, want)
		}
		if len(c.Labels) != 3 || c.Labels[2] != "2026-11-23 0000023" {
			t.Errorf("%s: runs %v", id, c.Labels)
		}
	}
	if c := byID["flakiest"]; !slices.Equal(c.Labels, []string{string(flakySpec), string(onceSpec), string(failSpec)}) || len(c.Datasets) != 2 ||
		c.Datasets[0].Label != "flaked" || c.Datasets[1].Label != "failed" {
		t.Errorf("flakiest: %+v", c)
	}
	if c := byID["runs"]; len(c.Labels) != 3 || len(c.Datasets) != 2 || c.Datasets[0].Points != 3 {
		t.Errorf("runs: %+v", c)
	}

	shot := filepath.Join(dir, "reports", "trend-screenshot.png")
	headless(t, bin, page, "--screenshot="+shot, "--hide-scrollbars")
	img := decodePNG(t, shot)
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1600 {
		t.Errorf("screenshot is %v, want 1200x1600", b)
	}
	if n := colours(img); n < 8 {
		t.Errorf("the screenshot has %d colours: nothing was drawn", n)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("/tmp/trend-screenshot.png", data, 0o644); err != nil && !errors.Is(err, os.ErrPermission) {
		t.Errorf("copy the screenshot to /tmp: %v", err)
	}
	t.Logf("screenshot: %s (and /tmp/trend-screenshot.png)", shot)
}

func decodePNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

// colours counts the distinct colours of the chart area (the top of the
// page, where the pass-rate chart and its legend are).
func colours(img image.Image) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Min.Y+600 && y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	return len(seen)
}
