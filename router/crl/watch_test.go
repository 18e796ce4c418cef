package crl

import (
	"context"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/router-conformance/suite/pki"
)

// An edit of the bundle file reaches the callback with the new CAs; a
// bundle that does not parse does not, and the next good one does.
func TestWatchBundleSeesAnEditInPlace(t *testing.T) {
	ca := func(cn string) []byte {
		c, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: cn}})
		if err != nil {
			t.Fatal(err)
		}
		return c.CertPEM
	}
	a, b := ca("a"), ca("b")
	path := filepath.Join(t.TempDir(), "ca-bundle.pem")
	// The kubelet swaps a ConfigMap volume's files by renaming.
	write := func(data []byte) {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write(a)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan []*x509.Certificate, 4)
	go WatchBundle(ctx, path, 10*time.Millisecond, t.Logf, func(cas []*x509.Certificate) { got <- cas })
	next := func(want ...string) {
		t.Helper()
		select {
		case cas := <-got:
			var names []string
			for _, c := range cas {
				names = append(names, c.Subject.CommonName)
			}
			if len(names) != len(want) || names[0] != want[0] || names[len(names)-1] != want[len(want)-1] {
				t.Fatalf("CAs %v, want %v", names, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no change seen, want %v", want)
		}
	}
	none := func() {
		t.Helper()
		select {
		case cas := <-got:
			t.Fatalf("a change of %d CAs seen, want none", len(cas))
		case <-time.After(100 * time.Millisecond):
		}
	}
	none() // the bundle at start is no change
	write(append(append([]byte{}, a...), b...))
	next("a", "b")
	write(a[:len(a)/2])
	none()
	write(b)
	next("b")
}
