package pki

import (
	"encoding/asn1"
	"encoding/hex"
	"fmt"

	"github.com/cloudflare/cfssl/config"
	"github.com/cloudflare/cfssl/signer"
)

// oidCRLDistributionPoints is id-ce-cRLDistributionPoints (RFC 5280,
// section 4.2.1.13).
var oidCRLDistributionPoints = asn1.ObjectIdentifier{2, 5, 29, 31}

// The RFC 5280 structures, as far as a URL needs them: a DistributionPoint
// whose distributionPoint [0] is a fullName [0] of one GeneralName, the
// uniformResourceIdentifier [6]. crypto/x509 writes one such point per URL
// of Certificate.CRLDistributionPoints and reads them back in order.
type distributionPointName struct {
	FullName []asn1.RawValue `asn1:"optional,tag:0"`
}

type distributionPoint struct {
	DistributionPoint distributionPointName `asn1:"optional,tag:0"`
}

// distributionPoints is the single point (if set) followed by the others.
func distributionPoints(single string, several []string) []string {
	var out []string
	if single != "" {
		out = append(out, single)
	}
	return append(out, several...)
}

// distributionPointsExtension is the extension that names urls in order,
// as cfssl takes it in a sign request; none for no URL.
func distributionPointsExtension(urls []string) ([]signer.Extension, error) {
	if len(urls) == 0 {
		return nil, nil
	}
	points := make([]distributionPoint, 0, len(urls))
	for _, u := range urls {
		if u == "" {
			return nil, fmt.Errorf("pki: an empty CRL distribution point in %q", urls)
		}
		points = append(points, distributionPoint{DistributionPoint: distributionPointName{
			FullName: []asn1.RawValue{{Class: asn1.ClassContextSpecific, Tag: 6, Bytes: []byte(u)}},
		}})
	}
	der, err := asn1.Marshal(points)
	if err != nil {
		return nil, fmt.Errorf("pki: encode CRL distribution points %q: %w", urls, err)
	}
	return []signer.Extension{{ID: config.OID(oidCRLDistributionPoints), Value: hex.EncodeToString(der)}}, nil
}
