package controller

import (
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/haproxy"
)

// routeWeightFaults changes the endpoint weights weightedEndpoints chose
// only under a test-only fault (faults.On). serviceWeights are the
// weights of each endpoint's service.
func routeWeightFaults(eps []haproxy.Endpoint, serviceWeights []int32) {
	allZero := true
	for _, e := range eps {
		allZero = allZero && e.Weight == 0
	}
	for i := range eps {
		switch {
		case faults.On("route-api.weights-ignored"):
			eps[i].Weight = 1
		case faults.On("route-api.zero-weight-gets-share") && eps[i].Weight == 0 && !allZero:
			eps[i].Weight = 1
		case faults.On("route-api.all-zero-serves") && allZero:
			eps[i].Weight = 1
		case faults.On("route-api.weight-not-shared-by-endpoints") && eps[i].Weight > 0:
			eps[i].Weight = int(serviceWeights[i])
		}
	}
}
