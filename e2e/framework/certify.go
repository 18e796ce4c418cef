package framework

import (
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
)

// CheckCertifiable applies the certification rules (reports/certify.go)
// to this run: its options, the Ginkgo configuration it runs under, the
// suite build and the router as named; with imageKnown (the profile is
// up) the router image too.
func (f *Framework) CheckCertifiable(cfg types.SuiteConfig, imageKnown bool) error {
	c := f.runRecord().Certification(cfg)
	c.ImageKnown = imageKnown
	return reports.Certifiable(c)
}
