package contract

import (
	"fmt"
	"hash/fnv"

	"k8s.io/apimachinery/pkg/util/rand"
)

// ComponentRouteHashLabel marks the Roles and RoleBindings the ingress
// operator makes for a component route (cluster-ingress-operator
// pkg/operator/controller/configurable-route/controller.go).
const ComponentRouteHashLabel = "ingress.operator.openshift.io/component-route-hash"

// ComponentRouteHash is the label's value for the component route
// namespace/name: upstream's pkg/util/hash.go Hash of "namespace/name",
// the 32-bit FNV-1a printed in decimal, each digit then mapped by
// rand.SafeEncodeString.
func ComponentRouteHash(namespace, name string) string {
	h := fnv.New32a()
	h.Write([]byte(namespace + "/" + name))
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}
