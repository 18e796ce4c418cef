package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/router-conformance/suite/clusters/registry"
)

// A push's existence probes (HEAD, 404) leave the log empty; a pull of
// an image that was never pushed (GET, 404) is named.
func TestLogsNameFailedPullsNotExistenceProbes(t *testing.T) {
	var logs bytes.Buffer
	quietLogs(&logs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := registry.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	blob := srv.URL + "/v2/router-conformance/echo/blobs/sha256:" + strings.Repeat("0", 64)
	manifest := srv.URL + "/v2/router-conformance/echo/manifests/absent"
	for _, req := range []struct{ method, url string }{
		{http.MethodGet, srv.URL + "/v2/"},
		{http.MethodHead, blob},
		{http.MethodHead, manifest},
	} {
		do(t, req.method, req.url)
	}
	if logs.Len() > 0 {
		t.Errorf("an answered request and two existence probes logged:\n%s", &logs)
	}
	if got := do(t, http.MethodGet, manifest); got != http.StatusNotFound {
		t.Fatalf("GET %s: %d, want 404", manifest, got)
	}
	if !strings.Contains(logs.String(), "manifest unknown") {
		t.Errorf("a failed pull logged %q, want its error", &logs)
	}
}

func do(t *testing.T, method, url string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
