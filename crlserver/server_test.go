package crlserver_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/crlserver"
	"github.com/router-conformance/suite/pki"
)

const ns = "crl-server"

func start(t *testing.T, maps ...*corev1.ConfigMap) (*httptest.Server, *fake.Clientset, *crlserver.Server, *bytes.Buffer) {
	t.Helper()
	client := fake.NewClientset()
	for _, cm := range maps {
		if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	logs := &bytes.Buffer{}
	srv := &crlserver.Server{Client: client, Namespace: ns, ConfigMaps: []string{"crls", "more-crls"}, Log: log.New(logs, "", 0)}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, client, srv, logs
}

func configMap(name string, data map[string]string, binary map[string][]byte) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: data, BinaryData: binary}
}

// get sends path verbatim (no client-side cleaning) and returns status and body.
func get(t *testing.T, ts *httptest.Server, method, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = path
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func issueCRLs(t *testing.T) (first, second *pki.CRL) {
	t.Helper()
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "crlserver test CA"}})
	if err != nil {
		t.Fatal(err)
	}
	client, err := ca.IssueClient(pki.ClientOptions{Subject: pki.Subject{CommonName: "revoked"}})
	if err != nil {
		t.Fatal(err)
	}
	if first, err = ca.IssueCRL(pki.CRLOptions{}); err != nil {
		t.Fatal(err)
	}
	if second, err = ca.IssueCRL(pki.CRLOptions{Revoked: pki.Revoke(client.Cert)}); err != nil {
		t.Fatal(err)
	}
	return first, second
}

func TestAConfigMapUpdateIsServedOnTheVeryNextRequest(t *testing.T) {
	first, second := issueCRLs(t)
	ts, client, _, _ := start(t, configMap("crls", map[string]string{"ca.crl.pem": string(first.PEM())}, nil))

	if status, body := get(t, ts, http.MethodGet, "/ca.crl.pem"); status != http.StatusOK || body != string(first.PEM()) {
		t.Fatalf("before the update: %d, body equal to the first CRL: %v", status, body == string(first.PEM()))
	}
	updated := configMap("crls", map[string]string{"ca.crl.pem": string(second.PEM())}, nil)
	if _, err := client.CoreV1().ConfigMaps(ns).Update(context.Background(), updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if status, body := get(t, ts, http.MethodGet, "/ca.crl.pem"); status != http.StatusOK || body != string(second.PEM()) {
		t.Fatalf("the request right after the update: %d, body equal to the rotated CRL: %v", status, body == string(second.PEM()))
	}
}

func TestPEMAndDERAreServedAsStoredAndGzipKeysDecompressed(t *testing.T) {
	first, _ := issueCRLs(t)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(first.PEM()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	ts, _, _, _ := start(t,
		configMap("crls", nil, map[string][]byte{"ca.crl": first.DER}),
		configMap("more-crls", nil, map[string][]byte{"big.crl.pem.gz": gz.Bytes()}),
	)
	for _, tc := range []struct {
		path, want, contentType string
	}{
		{"/ca.crl", string(first.DER), "application/pkix-crl"},
		{"/big.crl.pem", string(first.PEM()), "application/x-pem-file"},
	} {
		resp, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != tc.want || resp.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("%s: status %d, content type %q, body as stored: %v", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), string(body) == tc.want)
		}
	}
}

func TestFetchesAreCountedPerPathAndLogged(t *testing.T) {
	first, _ := issueCRLs(t)
	ts, _, srv, logs := start(t, configMap("crls", map[string]string{"root.crl.pem": string(first.PEM()), "int.crl.pem": string(first.PEM())}, nil))
	for i := 0; i < 3; i++ {
		get(t, ts, http.MethodGet, "/root.crl.pem")
	}
	get(t, ts, http.MethodGet, "/int.crl.pem")
	get(t, ts, http.MethodGet, "/missing.crl")  // a miss is not a fetch
	get(t, ts, http.MethodHead, "/int.crl.pem") // nor is a HEAD

	status, body := get(t, ts, http.MethodGet, crlserver.FetchesPath)
	if status != http.StatusOK {
		t.Fatalf("%s: %d", crlserver.FetchesPath, status)
	}
	counts, err := crlserver.DecodeFetches(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"/root.crl.pem": 3, "/int.crl.pem": 1}
	if fmt.Sprint(counts) != fmt.Sprint(want) || fmt.Sprint(srv.Fetches()) != fmt.Sprint(want) {
		t.Errorf("fetch counts = %v (in process %v), want %v", counts, srv.Fetches(), want)
	}
	if got := strings.Count(logs.String(), `path="/root.crl.pem" status=200`); got != 3 {
		t.Errorf("%d log lines for the three fetches of /root.crl.pem:\n%s", got, logs)
	}
}

func TestUnknownAndTraversalPathsAre404(t *testing.T) {
	first, _ := issueCRLs(t)
	ts, _, srv, _ := start(t, configMap("crls", map[string]string{"ca.crl.pem": string(first.PEM())}, nil))
	// Positive control: the stored key is served.
	if status, _ := get(t, ts, http.MethodGet, "/ca.crl.pem"); status != http.StatusOK {
		t.Fatalf("positive control: /ca.crl.pem gave %d", status)
	}
	for _, path := range []string{
		"/missing.crl", "/", "/..", "/../ca.crl.pem", "/x/../ca.crl.pem", "/%2e%2e/ca.crl.pem",
		"/ca.crl.pem/", "//ca.crl.pem", "/etc/passwd", "/ca.crl.pem%00", "/.%2fca.crl.pem",
	} {
		if status, _ := get(t, ts, http.MethodGet, path); status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, status)
		}
	}
	if got := srv.Fetches()["/ca.crl.pem"]; got != 1 {
		t.Errorf("fetches of /ca.crl.pem = %d, want 1 (misses must not count)", got)
	}
}

func TestHealthzMethodsAndSizeBound(t *testing.T) {
	ts, _, srv, _ := start(t, configMap("crls", map[string]string{"small.crl.pem": "-----BEGIN X509 CRL-----\n", "huge.crl.pem": strings.Repeat("A", 2048)}, nil))
	srv.MaxObjectBytes = 1024
	if status, body := get(t, ts, http.MethodGet, crlserver.HealthzPath); status != http.StatusOK || body != "ok\n" {
		t.Errorf("healthz: %d %q", status, body)
	}
	if status, _ := get(t, ts, http.MethodPost, "/small.crl.pem"); status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", status)
	}
	if status, _ := get(t, ts, http.MethodGet, "/small.crl.pem"); status != http.StatusOK {
		t.Errorf("positive control: an object under the bound gave %d", status)
	}
	if status, _ := get(t, ts, http.MethodGet, "/huge.crl.pem"); status != http.StatusBadGateway {
		t.Errorf("an object over the bound: %d, want 502", status)
	}
}

func TestStatusPathsFailWithTheirStatusWhateverIsStored(t *testing.T) {
	first, _ := issueCRLs(t)
	ts, _, srv, _ := start(t, configMap("crls", map[string]string{"ca.crl.pem": string(first.PEM())}, nil))
	// Positive control: the stored key is served.
	if status, _ := get(t, ts, http.MethodGet, "/ca.crl.pem"); status != http.StatusOK {
		t.Fatalf("positive control: /ca.crl.pem gave %d", status)
	}
	for _, code := range []int{http.StatusNotFound, http.StatusInternalServerError, http.StatusServiceUnavailable, 599, 400} {
		path := crlserver.StatusPath(code)
		if status, body := get(t, ts, http.MethodGet, path); status != code || body != http.StatusText(code)+"\n" {
			t.Errorf("%s: %d %q, want %d %q", path, status, body, code, http.StatusText(code))
		}
	}
	// Not an error status, or not a status: an ordinary miss.
	for _, path := range []string{"/status/200", "/status/399", "/status/600", "/status/5030", "/status/", "/status/abc", "/status/503/x", "/status/%35%30%33"} {
		if status, _ := get(t, ts, http.MethodGet, path); status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, status)
		}
	}
	if got := srv.Fetches(); len(got) != 1 {
		t.Errorf("fetch counts = %v: a failing path is not a fetch", got)
	}
}
