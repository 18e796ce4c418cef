// Package pki mints the certificate material the conformance specs use:
// root and intermediate CAs (each carrying its CRL distribution points, in
// order),
// server certificates for route hosts, client certificates with chosen
// subjects and validity windows, CRLs with explicit update times, and the
// bundles HAProxy and the router expect.
//
// Certificates are issued with cfssl's local signer used as a library
// (without a CA certificate for roots, so self-signed); the CRL
// distribution points go in as a whitelisted extension, since cfssl's own
// option writes one URL only. CRLs are built with crypto/x509
// because cfssl's CRL helper always stamps thisUpdate with the current time
// and writes neither a CRL number nor an authority key id, and the specs need
// all three under control.
package pki

import "github.com/cloudflare/cfssl/log"

func init() {
	// cfssl logs every signature at INFO on stderr; that is noise in a test run.
	log.Level = log.LevelError
}
