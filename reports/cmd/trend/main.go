// Command trend draws the history of nightly runs (`make trend
// HISTORY="<history.jsonl>..."`) as one self-contained HTML page: the pass
// rate and the spec time of each feature run by run, each run's result
// and wall time, and the flakiest specs. The charts are drawn by
// Chart.js, vendored beside this file (chart.umd.min.js, v4.6.1 from the
// npm registry's chart.js package, unchanged; its MIT license in
// chart.js.LICENSE.md) and inlined into the page, so the page reads
// offline: its Content-Security-Policy forbids every fetch.
//
// Once every chart has rendered, the page lists each chart's datasets,
// read from the live Chart instances, in <pre id="series"> (JSON), so a
// test or a person can check what was drawn without looking at pixels.
package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// chartJS is Chart.js's UMD build, its license header kept.
//
//go:embed chart.umd.min.js
var chartJS string

//go:embed chart.js.LICENSE.md
var chartJSLicense string

// ChartJSVersion is the vendored Chart.js.
const ChartJSVersion = "4.6.1"

func main() {
	out := flag.String("o", "_output/trend.html", "the page to write")
	title := flag.String("title", "Router conformance: nightly trend", "the page's title")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: trend [-o trend.html] history.jsonl...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	history, err := reports.ReadHistory(flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trend:", err)
		os.Exit(1)
	}
	page, err := Render(*title, history)
	if err == nil {
		err = write(*out, page)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "trend:", err)
		os.Exit(1)
	}
	fmt.Printf("trend: %d runs -> %s\n", len(history), *out)
}

func write(out string, page []byte) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, page, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// Data is what the page's script draws.
type Data struct {
	Runs     []Run           `json:"runs"`
	Features []FeatureSeries `json:"features"`
	// Flakiest are the specs that flaked or failed most often, most first.
	Flakiest []SpecTrouble `json:"flakiest"`
}

// Run is one run of the history.
type Run struct {
	Label          string         `json:"label"`
	Date           time.Time      `json:"date"`
	SuiteCommit    string         `json:"suiteCommit"`
	RouterImage    string         `json:"routerImage,omitempty"`
	Implementation string         `json:"implementation,omitempty"`
	Result         reports.Result `json:"result"`
	Reason         string         `json:"reason,omitempty"`
	Seconds        float64        `json:"seconds"`
	Flaked         int            `json:"flaked"`
}

// FeatureSeries is one feature across the runs: null where it ran no
// spec.
type FeatureSeries struct {
	Feature contract.Feature `json:"feature"`
	Name    string           `json:"name"`
	// PassRate is passed / (passed + failed), in percent.
	PassRate []*float64 `json:"passRate"`
	// Seconds is its specs' time.
	Seconds []*float64 `json:"seconds"`
	Flaked  []int      `json:"flaked"`
}

// SpecTrouble counts the runs in which a spec flaked (failed, then passed
// on a retry) and those in which it failed.
type SpecTrouble struct {
	ID      contract.SpecID  `json:"id"`
	Feature contract.Feature `json:"feature"`
	Flaked  int              `json:"flaked"`
	Failed  int              `json:"failed"`
}

// Cell is one feature in one run in the page's table.
type Cell struct {
	Text, Class, Title string
}

// TableRow is one feature across the runs in the page's table.
type TableRow struct {
	Feature contract.Feature
	Name    string
	Cells   []Cell
}

// Table is the pass-rate chart as a table: a row per drawn feature, a
// cell per run, coloured by the feature's result (lines of equal rates
// hide one another in the chart; the table shows every one).
func Table(history []reports.HistoryEntry, d Data) []TableRow {
	var rows []TableRow
	for _, s := range d.Features {
		row := TableRow{Feature: s.Feature, Name: s.Name}
		for _, e := range history {
			c := Cell{Text: "–", Class: "none", Title: "no spec ran"}
			for _, f := range e.Features {
				rate, ran := f.PassRate()
				if f.Feature != s.Feature || !ran {
					continue
				}
				c = Cell{Text: fmt.Sprintf("%.0f%%", 100*rate), Class: "passed",
					Title: fmt.Sprintf("%d passed, %d failed, %d flaked, %d skipped", f.Passed, f.Failed, f.Flaked, f.Skipped)}
				switch {
				case f.Failed > 0:
					c.Class, c.Text = "failed", fmt.Sprintf("%s (%d failed)", c.Text, f.Failed)
				case f.Flaked > 0:
					c.Class, c.Text = "flaked", fmt.Sprintf("%s (%d flaked)", c.Text, f.Flaked)
				}
			}
			row.Cells = append(row.Cells, c)
		}
		rows = append(rows, row)
	}
	return rows
}

// maxFlakiest bounds the flakiest-specs chart.
const maxFlakiest = 15

// PageData turns a history (date order) into the page's series. A
// feature is drawn when some run ran a spec of it; the features keep the
// order of contract/features.go.
func PageData(history []reports.HistoryEntry) Data {
	var d Data
	perDay := map[string]int{}
	for _, e := range history {
		perDay[e.Date.UTC().Format(time.DateOnly)]++
	}
	for _, e := range history {
		label := e.Date.UTC().Format(time.DateOnly)
		if perDay[label] > 1 {
			label = e.Date.UTC().Format("2006-01-02 15:04")
		}
		if c := shortCommit(e.SuiteCommit); c != "" {
			label += " " + c
		}
		d.Runs = append(d.Runs, Run{Label: label, Date: e.Date, SuiteCommit: e.SuiteCommit, RouterImage: e.RouterImage,
			Implementation: e.Implementation, Result: e.Result, Reason: e.Reason, Seconds: e.Seconds, Flaked: e.Flaked})
	}

	order := map[contract.Feature]int{}
	names := map[contract.Feature]string{}
	for i, f := range contract.Features {
		order[f.Feature], names[f.Feature] = i, f.Name
	}
	series := map[contract.Feature]*FeatureSeries{}
	trouble := map[contract.SpecID]*SpecTrouble{}
	for i, e := range history {
		for _, f := range e.Features {
			rate, ran := f.PassRate()
			if !ran {
				continue
			}
			s := series[f.Feature]
			if s == nil {
				name := names[f.Feature]
				if name == "" {
					name = string(f.Feature)
				}
				s = &FeatureSeries{Feature: f.Feature, Name: name, PassRate: make([]*float64, len(history)),
					Seconds: make([]*float64, len(history)), Flaked: make([]int, len(history))}
				series[f.Feature] = s
			}
			pct, secs := 100*rate, f.Seconds
			s.PassRate[i], s.Seconds[i], s.Flaked[i] = &pct, &secs, f.Flaked
			for _, id := range f.FlakedSpecs {
				specTrouble(trouble, id, f.Feature).Flaked++
			}
			for _, id := range f.FailedSpecs {
				specTrouble(trouble, id, f.Feature).Failed++
			}
		}
	}
	for _, s := range series {
		d.Features = append(d.Features, *s)
	}
	slices.SortFunc(d.Features, func(a, b FeatureSeries) int {
		oa, okA := order[a.Feature]
		ob, okB := order[b.Feature]
		switch {
		case okA && okB:
			return oa - ob
		case okA != okB: // features this suite version does not know go last
			if okA {
				return -1
			}
			return 1
		}
		return strings.Compare(string(a.Feature), string(b.Feature))
	})
	for _, t := range trouble {
		d.Flakiest = append(d.Flakiest, *t)
	}
	slices.SortFunc(d.Flakiest, func(a, b SpecTrouble) int {
		if a.Flaked != b.Flaked {
			return b.Flaked - a.Flaked
		}
		if a.Failed != b.Failed {
			return b.Failed - a.Failed
		}
		return strings.Compare(string(a.ID), string(b.ID))
	})
	if len(d.Flakiest) > maxFlakiest {
		d.Flakiest = d.Flakiest[:maxFlakiest]
	}
	return d
}

func specTrouble(m map[contract.SpecID]*SpecTrouble, id contract.SpecID, f contract.Feature) *SpecTrouble {
	if m[id] == nil {
		m[id] = &SpecTrouble{ID: id, Feature: f}
	}
	return m[id]
}

func shortCommit(c string) string {
	if c == "unknown" {
		return ""
	}
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// Render is the page.
func Render(title string, history []reports.HistoryEntry) ([]byte, error) {
	data := PageData(history)
	// json.Marshal escapes <, > and &: the data cannot close its script.
	j, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	lib := inlineable(chartJS)
	if strings.Contains(strings.ToLower(lib), "</script") {
		return nil, fmt.Errorf("chart.umd.min.js contains </script: it cannot be inlined")
	}
	var b bytes.Buffer
	err = page.Execute(&b, map[string]any{
		"Title": title, "Runs": data.Runs, "Table": Table(history, data), "Generated": time.Now().UTC().Format(time.RFC3339),
		"Data": template.JS(j), "ChartJS": template.JS(lib), "ChartJSVersion": ChartJSVersion, "ChartJSLicense": chartJSLicense,
		"Script": template.JS(script),
	})
	return b.Bytes(), err
}

// inlineable is the library without its source-map comment: the page
// fetches nothing, its map included.
func inlineable(js string) string {
	js = strings.TrimRight(js, "\n")
	if i := strings.LastIndex(js, "\n//# sourceMappingURL="); i >= 0 {
		js = js[:i]
	}
	return js + "\n"
}

var page = template.Must(template.New("trend").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1150px; color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin: 1.6em 0 0.4em; }
.note { color: #555; margin: 0.2em 0 0.8em; }
.chart { position: relative; height: 320px; }
.chart.tall { height: 300px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
td.passed { color: #1a7f37; font-weight: 600; }
td.failed, td.error { color: #cf222e; font-weight: 600; }
td.partial { color: #9a6700; font-weight: 600; }
table.rates { margin-top: 0.8em; }
table.rates td.passed { background: #dafbe1; color: #1a7f37; font-weight: normal; }
table.rates td.flaked { background: #fbefff; color: #8250df; }
table.rates td.failed { background: #ffebe9; color: #cf222e; font-weight: normal; }
table.rates td.none { color: #999; }
code { font-size: 12px; }
pre#series { font-size: 11px; color: #555; white-space: pre-wrap; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="note">{{len .Runs}} runs, from each run's <code>history.jsonl</code> line. Generated {{.Generated}}.</p>

<h2>Pass rate per feature</h2>
<p class="note">Passed / (passed + failed) specs of the feature, in percent; a flaked spec (failed, then passed on a retry) counts as passed. A gap: no spec of the feature ran.</p>
<div class="chart"><canvas id="pass-rate"></canvas></div>
<table class="rates">
<tr><th>feature</th>{{range .Runs}}<th>{{.Label}}</th>{{end}}</tr>
{{range .Table}}<tr><td>{{.Name}} (<code>{{.Feature}}</code>)</td>{{range .Cells}}<td class="{{.Class}}" title="{{.Title}}">{{.Text}}</td>{{end}}</tr>
{{end}}</table>

<h2>Flakiest specs</h2>
<p class="note">Runs in which a spec flaked (failed, then passed on a retry) or failed, most first.</p>
<div class="chart tall"><canvas id="flakiest"></canvas></div>

<h2>Spec time per feature</h2>
<p class="note">Seconds its specs ran (retries included); the specs run in parallel, so this is spec time, not wall time.</p>
<div class="chart"><canvas id="seconds"></canvas></div>

<h2>Runs</h2>
<p class="note">Each run's wall time, coloured by its verdict, and its flaked specs.</p>
<div class="chart"><canvas id="runs"></canvas></div>

<h2>Every run</h2>
<table>
<tr><th>run</th><th>result</th><th>flaked</th><th>wall time</th><th>implementation</th><th>router image</th><th>suite commit</th><th>reason</th></tr>
{{range .Runs}}<tr><td>{{.Date.UTC.Format "2006-01-02 15:04"}}</td><td class="{{.Result}}">{{.Result}}</td><td>{{.Flaked}}</td><td>{{printf "%.0f" .Seconds}} s</td><td>{{.Implementation}}</td><td><code>{{.RouterImage}}</code></td><td><code>{{.SuiteCommit}}</code></td><td>{{.Reason}}</td></tr>
{{end}}</table>

<h2>What was drawn</h2>
<p class="note">Each chart's datasets as the live charts hold them (written once every chart has rendered).</p>
<pre id="series">not rendered</pre>

<details><summary class="note">Charts drawn with Chart.js v{{.ChartJSVersion}} (MIT License)</summary><pre>{{.ChartJSLicense}}</pre></details>

<script type="application/json" id="trend-data">{{.Data}}</script>
<script>
{{.ChartJS}}</script>
<script>
{{.Script}}</script>
</body>
</html>
`))

// script draws the charts from #trend-data, then lists what they hold in
// #series.
const script = `(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trend-data").textContent);
  var labels = data.runs.map(function (r) { return r.label; });
  var palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                 "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"];
  var verdict = { passed: "#2da44e", partial: "#d4a72c", failed: "#cf222e", error: "#6e7781" };
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;

  var charts = [];
  var rendered = {};
  function writeSeries() {
    var series = Object.values(Chart.instances).map(function (c) {
      return {
        chart: c.canvas.id,
        type: c.config.type,
        width: c.width,
        height: c.height,
        labels: c.data.labels.slice(),
        datasets: c.data.datasets.map(function (d) {
          return { label: d.label, points: d.data.filter(function (v) { return v !== null && v !== undefined; }).length };
        })
      };
    });
    series.sort(function (a, b) { return a.chart < b.chart ? -1 : a.chart > b.chart ? 1 : 0; });
    var pre = document.getElementById("series");
    pre.textContent = JSON.stringify(series, null, 1);
    pre.setAttribute("data-charts", String(series.length));
    document.body.setAttribute("data-rendered", "true");
  }
  // Once each of the four charts has rendered (the last one renders
  // while it is constructed: no animation), list them.
  var probe = {
    id: "seriesProbe",
    afterRender: function (chart) {
      rendered[chart.canvas.id] = true;
      if (Object.keys(rendered).length === 4 && !document.body.hasAttribute("data-rendered")) { writeSeries(); }
    }
  };
  Chart.register(probe);

  function line(id, key, unit, max) {
    return new Chart(document.getElementById(id), {
      type: "line",
      data: {
        labels: labels,
        datasets: data.features.map(function (f, i) {
          return { label: f.feature, data: f[key], borderColor: palette[i % palette.length],
                   backgroundColor: palette[i % palette.length], spanGaps: false, tension: 0.1 };
        })
      },
      options: {
        interaction: { mode: "index", intersect: false },
        scales: { y: { beginAtZero: true, max: max, title: { display: true, text: unit } } },
        plugins: {
          legend: { position: "right" },
          tooltip: { callbacks: { title: function (items) {
            var r = data.runs[items[0].dataIndex];
            return r.label + " (" + r.result + ")";
          } } }
        }
      }
    });
  }
  charts.push(line("pass-rate", "passRate", "% passed", 100));
  charts.push(line("seconds", "seconds", "seconds"));
  charts.push(new Chart(document.getElementById("runs"), {
    type: "bar",
    data: {
      labels: labels,
      datasets: [
        { label: "wall time (s)", data: data.runs.map(function (r) { return r.seconds; }),
          backgroundColor: data.runs.map(function (r) { return verdict[r.result] || "#6e7781"; }), yAxisID: "y" },
        { label: "flaked specs", type: "line", data: data.runs.map(function (r) { return r.flaked; }),
          borderColor: "#8250df", backgroundColor: "#8250df", yAxisID: "y1" }
      ]
    },
    options: {
      scales: {
        y: { beginAtZero: true, title: { display: true, text: "seconds" } },
        y1: { beginAtZero: true, position: "right", grid: { drawOnChartArea: false }, ticks: { precision: 0 },
              title: { display: true, text: "flaked specs" } }
      },
      plugins: { tooltip: { callbacks: { afterTitle: function (items) {
        var r = data.runs[items[0].dataIndex];
        return r.result + (r.reason ? ": " + r.reason : "");
      } } } }
    }
  }));
  charts.push(new Chart(document.getElementById("flakiest"), {
    type: "bar",
    data: {
      labels: data.flakiest.map(function (s) { return s.id; }),
      datasets: [
        { label: "flaked", data: data.flakiest.map(function (s) { return s.flaked; }), backgroundColor: "#8250df", maxBarThickness: 24 },
        { label: "failed", data: data.flakiest.map(function (s) { return s.failed; }), backgroundColor: "#cf222e", maxBarThickness: 24 }
      ]
    },
    options: {
      indexAxis: "y",
      scales: { x: { stacked: true, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: "runs" } },
                y: { stacked: true } },
      plugins: { tooltip: { callbacks: { title: function (items) {
        var s = data.flakiest[items[0].dataIndex];
        return s.id;
      } } } }
    }
  }));
})();
`
