package contract

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// contourV101Dir is Contour v1.0.1's source in the module cache, or "" when
// it is not there. The test never downloads it: `go mod download
// github.com/projectcontour/contour@v1.0.1` (or `go get` in a scratch
// module) puts it there.
func contourV101Dir(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Logf("go env GOMODCACHE: %v", err)
		return ""
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "github.com", "projectcontour", "contour@v1.0.1")
	if _, err := os.Stat(filepath.Join(dir, "internal", "dag", "builder.go")); err != nil {
		return ""
	}
	return dir
}

// Every Contour wording is a format string of Contour v1.0.1's
// internal/dag/builder.go, verbatim (as a Go string literal there). The
// module is not a dependency of this one (it pins 2019 Kubernetes
// modules), so the file is read from the module cache when it is there;
// otherwise only the table's own consistency is checked.
func TestContourStatusWordingsAreVerbatim(t *testing.T) {
	dir := contourV101Dir(t)
	if dir == "" {
		t.Log("github.com/projectcontour/contour@v1.0.1 is not in the module cache: Contour's wordings are not checked against its source (go mod download github.com/projectcontour/contour@v1.0.1 to check them)")
		return
	}
	src, err := os.ReadFile(filepath.Join(dir, "internal", "dag", "builder.go"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, row := range IngressRouteStatusFormats {
		for _, f := range row.Formats {
			if f.Source != ContourV101Builder {
				continue
			}
			checked++
			if lit := strconv.Quote(f.Format); !strings.Contains(string(src), lit) {
				t.Errorf("%s: %s is not in %s", row.Condition, lit, ContourV101Builder)
			}
		}
	}
	if checked == 0 {
		t.Error("no Contour wording in the table")
	}
}

// The table is consistent: every condition has Contour's wording, or says
// why v1.0.1 has none, and the reference router's, each with its source;
// every constructor fills in the formats its condition lists, in order,
// with the right number of arguments, and accepts any wording exactly
// when Contour has none.
func TestIngressRouteStatusTable(t *testing.T) {
	rows := map[string][]StatusFormat{}
	accepts := map[string]bool{}
	for _, row := range IngressRouteStatusFormats {
		rows[row.Condition] = row.Formats
		accepts[row.Condition] = row.ContourAccepts != ""
		var contour, reference bool
		for _, f := range row.Formats {
			if f.Format == "" || f.Source == "" {
				t.Errorf("%s: format %+v lacks its text or source", row.Condition, f)
			}
			contour = contour || f.Source == ContourV101Builder
			reference = reference || f.Source == referenceRouterDAG
		}
		if contour == (row.ContourAccepts != "") || !reference {
			t.Errorf("%s: want Contour's wording (or why v1.0.1 has none, not both) and the reference router's, got %+v (ContourAccepts %q)", row.Condition, row.Formats, row.ContourAccepts)
		}
	}
	built := []StatusDescription{
		IngressRouteOutsidePrefix("/other", "/team", "ns/root"),
		IngressRouteServiceNotFound("ns", "svc", 8080),
		IngressRouteServicePortAbsent("ns", "svc", 8080),
		IngressRouteCycle("ns/root", "ns/a", "ns/a"),
		IngressRouteDelegatesToRoot("ns/other"),
		IngressRouteFqdnConflict("www.example.test", "ns/b", "ns/a"),
		IngressRouteTLSSecretNotFound("ns", "tls"),
		IngressRouteTLSSecretWrongType("ns", "tls", "Opaque"),
		IngressRouteTLSSecretNameMissing(),
		IngressRouteTLSSecretOtherNamespace("ns", "other", "tls"),
		IngressRouteServiceAndDelegate("/both"),
		IngressRouteNoServiceOrDelegate("/none"),
		IngressRouteRoutesMissing(),
	}
	seen := map[string]bool{}
	for _, d := range built {
		seen[d.Condition] = true
		formats, ok := rows[d.Condition]
		if !ok {
			t.Errorf("%s: not in IngressRouteStatusFormats", d.Condition)
			continue
		}
		if d.CurrentStatus != "invalid" {
			t.Errorf("%s: currentStatus %q", d.Condition, d.CurrentStatus)
		}
		if d.AnyWording != accepts[d.Condition] {
			t.Errorf("%s: AnyWording %v, but the table says Contour accepts it: %v", d.Condition, d.AnyWording, accepts[d.Condition])
		}
		if len(d.Wordings) != len(formats) {
			t.Errorf("%s: %d wordings, the table has %d formats", d.Condition, len(d.Wordings), len(formats))
			continue
		}
		for i, w := range d.Wordings {
			if w.Source != formats[i].Source || strings.Contains(w.Text, "%!") {
				t.Errorf("%s: wording %d %q (%s) does not fill in %q (%s)", d.Condition, i, w.Text, w.Source, formats[i].Format, formats[i].Source)
			}
			if !d.Matches("prefix; " + w.Text + "; suffix") {
				t.Errorf("%s: does not match its own wording %q", d.Condition, w.Text)
			}
		}
		if d.AnyWording {
			if d.Names == "" || d.Matches("") || d.Matches(`service "absent" not found`) {
				t.Errorf("%s names nothing, or matches an empty or an unrelated description", d)
			}
			if !d.Matches("it has no " + strings.ToUpper(d.Names) + " at all") {
				t.Errorf("%s does not match another wording that names %q", d, d.Names)
			}
		} else if d.Matches("valid IngressRoute") {
			t.Errorf("%s matches an unrelated description", d)
		}
	}
	for c := range rows {
		if !seen[c] {
			t.Errorf("%s: no constructor", c)
		}
	}
}

// The wordings a spec matches hold the values of its case, as Contour
// writes them.
func TestIngressRouteStatusWordingsFilled(t *testing.T) {
	for _, c := range []struct {
		d    StatusDescription
		want string
	}{
		{IngressRouteOutsidePrefix("/teamx", "/team", "r/root"), `the path prefix "/teamx" does not match the parent's path prefix "/team"`},
		{IngressRouteServiceNotFound("ns", "svc", 8080), "Service [svc:8080] is invalid or missing"},
		{IngressRouteCycle("r/root", "r/a", "r/b", "r/a"), "route creates a delegation cycle: r/root -> r/a -> r/b -> r/a"},
		{IngressRouteDelegatesToRoot("r/other"), "root ingressroute cannot delegate to another root ingressroute"},
		{IngressRouteFqdnConflict("www.a.test", "y/two", "x/one"), `fqdn "www.a.test" is used in multiple IngressRoutes: x/one, y/two`},
		{IngressRouteTLSSecretNotFound("ns", "www-tls"), "TLS Secret [www-tls] not found or is malformed"},
		{IngressRouteTLSSecretNameMissing(), "TLS Secret [] not found or is malformed"},
		{IngressRouteTLSSecretOtherNamespace("hosts", "app", "www-tls"), "app/www-tls: certificate delegation not permitted"},
		{IngressRouteServiceAndDelegate("/both"), `route "/both": cannot specify services and delegate in the same route`},
	} {
		if !c.d.Matches(c.want) {
			t.Errorf("%s does not accept Contour's %q", c.d, c.want)
		}
	}
	if IngressRouteServiceNotFound("ns", "svc", 8080).Matches("Service [svc:9090] is invalid or missing") {
		t.Error("a description naming another port was accepted")
	}
	if IngressRouteTLSSecretNameMissing().Matches("TLS Secret [www-tls] not found or is malformed") {
		t.Error("a missing secretName accepted the wording of a named secret")
	}
	if IngressRouteTLSSecretOtherNamespace("hosts", "app", "www-tls").Matches("TLS Secret [app/www-tls] not found or is malformed") {
		t.Error("a secret of another namespace accepted the wording of a missing one")
	}
}
