package crl

import (
	"bytes"
	"context"
	"crypto/x509"
	"os"
	"time"

	"github.com/router-conformance/suite/faults"
)

// WatchBundle calls changed with the bundle's CAs each time the file at
// path holds other bytes than it did, looking every interval, until ctx
// ends. The client CA bundle is a ConfigMap volume: the kubelet swaps its
// files in place when the ConfigMap is edited, and the router must take
// the new CAs without a restart (upstream: openshift/router
// pkg/router/template/router.go watchMutualTLSCert, a watch on the mount
// directory). A bundle that does not parse is logged and skipped: the
// router keeps the CAs it has until a good one arrives.
func WatchBundle(ctx context.Context, path string, interval time.Duration, logf func(string, ...any), changed func([]*x509.Certificate)) {
	last, _ := os.ReadFile(path)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
		data, err := os.ReadFile(path)
		if err != nil || bytes.Equal(data, last) || faults.On("client-tls.client-ca-edit-not-watched") {
			continue
		}
		last = data
		cas, err := ReadBundle(path)
		if err != nil {
			logf("client CA bundle changed but is not usable, keeping the CAs in use: %v", err)
			continue
		}
		changed(cas)
	}
}
