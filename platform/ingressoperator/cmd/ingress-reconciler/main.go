// Command ingress-reconciler stands in for the ingress operator on kind
// (see package operator).
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/router-conformance/suite/platform/ingressoperator"
)

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ingress-reconciler: not in a cluster:", err)
		os.Exit(1)
	}
	r := &ingressoperator.Reconciler{Kube: kubernetes.NewForConfigOrDie(cfg), Operator: operatorclient.NewForConfigOrDie(cfg), Logf: log.Printf}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log.Printf("reconciling IngressControllers of %s into Deployments of %s", ingressoperator.OperatorNamespace, ingressoperator.RouterNamespace)
	if err := r.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "ingress-reconciler:", err)
		os.Exit(1)
	}
}
