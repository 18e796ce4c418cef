package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// The custom route configuration enhancement (custom-route-configuration),
// sections "Proposal" and "Control loop to manage secret read permissions
// in openshift-config": a cluster-admin gives a component's route a custom
// host name and serving certificate through the Ingress config; the
// ingress operator grants the component's service accounts read access to
// exactly that Secret; the component moves its route.
//
// Each spec judges one thing, and says which:
//   - the ingress operator (judges:platform): the Roles and RoleBindings
//     of cluster-ingress-operator's configurable-route controller
//     (pkg/operator/controller/configurable-route/controller.go). These
//     specs play the component (they write its status entry), as
//     cluster-ingress-operator's test/e2e/configurable_route_test.go does;
//   - the Ingress config CRD (judges:platform): what consumingUsers admits;
//   - the suite's fixture component (judges:platform): its status entry,
//     its Route, Degraded. It follows cluster-authentication-operator's
//     custom route controller (pkg/controllers/customroute/
//     custom_route_controller.go, customRouteController.sync), and these
//     specs look at the Route and the status entry through the API only;
//   - the router (no label): the custom host served with the Secret's
//     certificate, the old host no more. Those specs come after the
//     fixture's in an Ordered container, so a fixture that fails skips
//     them rather than failing them.
//
// The Ingress config is one for the cluster, but each spec touches only
// the entries of its own namespace: they run in parallel.
func describeComponentRoutes(f *framework.Framework) {
	// Every spec writes entries of the cluster's Ingress config (its own,
	// removed when it ends): Disruptive on a cluster the suite did not
	// make.
	framework.DescribeFeature(contract.FeatureComponentRoutes, framework.Disruptive, func() {
		describeComponentRouteRBAC(f)

		// The pinned openshift/api CRD: consumingUsers are service accounts,
		// at most five.
		//
		// Document: the custom route configuration enhancement, section
		// "Proposal" (ComponentRouteStatus.ConsumingUsers, "usually an operator
		// service account"; "Validation rules to be specified in the
		// openshift/api PR")
		// Upstream: openshift/api config/v1/types_ingress.go (ConsumingUser's
		// pattern ^system:serviceaccount:..., consumingUsers' MaxItems=5: the
		// Ingress CRD schema)
		DescribeTable("refuses consuming users the CRD does not allow", framework.JudgesPlatform,
			func(ctx SpecContext, users []configv1.ConsumingUser, want contract.Refusal) {
				ns := f.SpecNamespace(ctx, "component-invalid")
				jig := framework.NewComponentRouteJig(f, ns)
				route := jig.Route("console", "cert")
				By("positive control: one service account is admitted")
				jig.Set(ctx, route.Spec(), route.Status(configv1.ConsumingUser("system:serviceaccount:"+ns+":component")))
				err := jig.UpdateStatus(ctx, route.Status(users...))
				framework.ExpectRefusal(Default, err, want)
			},
			Entry("a user that is no service account", framework.ID("component-routes/refuse-non-service-account"), []configv1.ConsumingUser{"system:admin"}, contract.ComponentRouteConsumingUserPattern),
			Entry("six users", framework.ID("component-routes/refuse-six-users"), []configv1.ConsumingUser{
				"system:serviceaccount:a:a", "system:serviceaccount:a:b", "system:serviceaccount:a:c",
				"system:serviceaccount:a:d", "system:serviceaccount:a:e", "system:serviceaccount:a:f",
			}, contract.ComponentRouteConsumingUsersOverLimit),
		)
		describeComponentRouteSchema(f)

		describeFixtureComponent(f)
		describeComponentRouteMove(f)
	})
}
