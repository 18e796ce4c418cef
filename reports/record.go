package reports

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// RunRecordEntry names the report entry in which the suite records its
// own run: Ginkgo writes it into report.json with the "conformance
// report" ReportAfterSuite node, which runs on process 1 once every spec
// has ended (a dry run too).
const RunRecordEntry = "router-conformance run record"

// RunRecord is what the suite binary records of its run while it runs:
// everything the verdict depends on besides the specs' outcomes (which
// Ginkgo records itself). The verifier takes the claims, the options, the
// suite build and the router image from here and holds every other file
// to it; conformance.yaml is a view of it, never an input.
type RunRecord struct {
	Meta `json:",inline"`
	// Certify: the run was made with -certify.
	Certify bool `json:"certify"`
	// ReferenceRouter: the router judged is the suite's own.
	ReferenceRouter bool `json:"referenceRouter"`
	// Timeouts are the run's waits.
	Timeouts contract.Timeouts `json:"timeouts"`
	// Reuse: the run reused a cluster it did not make.
	Reuse bool `json:"reuse,omitempty"`
	// FailOnceHook is the test-only hook's value, when set.
	FailOnceHook string `json:"failOnceHook,omitempty"`
}

// Certification is the record with the run's Ginkgo configuration, for
// the certification rules (certify.go); the profile was up when the
// record names an image.
func (r RunRecord) Certification(g types.SuiteConfig) Certification {
	return Certification{
		Certify: r.Certify, Ginkgo: g, Timeouts: r.Timeouts, Reuse: r.Reuse, FailOnceHook: r.FailOnceHook,
		Suite: r.Suite, Implementation: r.Implementation, ReferenceRouter: r.ReferenceRouter,
		ImageKnown: r.Implementation.Image != "",
	}
}

// ReadRunRecord finds the suite's record in a Ginkgo report: exactly one
// entry of that name, on a ReportAfterSuite node.
func ReadRunRecord(g types.Report) (RunRecord, error) {
	var found []types.ReportEntry
	for _, s := range g.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != RunRecordEntry {
				continue
			}
			if s.LeafNodeType != types.NodeTypeReportAfterSuite {
				return RunRecord{}, fmt.Errorf("the run record is on a %s node, not the suite's report node", s.LeafNodeType)
			}
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return RunRecord{}, errors.New("report.json holds no run record: it was not written by this suite's binary")
	case 1:
	default:
		return RunRecord{}, fmt.Errorf("report.json holds %d run records, not 1", len(found))
	}
	var r RunRecord
	if err := json.Unmarshal([]byte(found[0].Value.AsJSON), &r); err != nil {
		return RunRecord{}, fmt.Errorf("the run record: %v", err)
	}
	return r, nil
}
