// Package contract is what the suite and a router implementation agree
// on, as OpenShift defines it: where things live, the annotation keys, the
// IngressController conditions a caller waits for, and the wordings of
// upstream's refusals. The suite owns it and takes every expectation from
// it; the reference router imports it too, never the other way round, so
// the suite cannot learn a belief from the code it judges.
package contract
