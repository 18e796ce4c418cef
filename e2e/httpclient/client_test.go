package httpclient

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A spec tells "the router asks for no certificate" from "it asks and
// accepts none" by CertificateRequested; SNI is sent or not as asked.
func TestCertificateRequestedAndSNI(t *testing.T) {
	for _, tc := range []struct {
		auth  tls.ClientAuthType
		noSNI bool
		want  bool
	}{
		{tls.NoClientCert, false, false},
		{tls.RequestClientCert, false, true},
		{tls.VerifyClientCertIfGiven, true, true},
		{tls.NoClientCert, true, false},
	} {
		var sni string
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
		srv.TLS = &tls.Config{ClientAuth: tc.auth, GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
			sni = h.ServerName
			return nil, nil
		}}
		srv.StartTLS()
		resp, err := Do(context.Background(), Request{Addr: strings.TrimPrefix(srv.URL, "https://"), HTTPS: true, Host: "a.example", Path: "/", NoSNI: tc.noSNI, Timeout: 5 * time.Second})
		srv.Close()
		if err != nil {
			t.Fatalf("%v: %v", tc.auth, err)
		}
		if resp.CertificateRequested != tc.want {
			t.Errorf("%v: CertificateRequested = %v, want %v", tc.auth, resp.CertificateRequested, tc.want)
		}
		if wantSNI := map[bool]string{false: "a.example", true: ""}[tc.noSNI]; sni != wantSNI {
			t.Errorf("%v, NoSNI %v: the server saw SNI %q, want %q", tc.auth, tc.noSNI, sni, wantSNI)
		}
	}
}
