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

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	routeclient "github.com/openshift/client-go/route/clientset/versioned"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/router-conformance/suite/platform/ingressoperator"
	"github.com/router-conformance/suite/platform/ingressoperator/componentroutes"
	"github.com/router-conformance/suite/platform/serviceca"
)

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ingress-reconciler: not in a cluster:", err)
		os.Exit(1)
	}
	kube := kubernetes.NewForConfigOrDie(cfg)
	// IMAGE is the router image shards run, as the upstream operator's
	// IMAGE variable; unset, shards run the default router's image.
	// SYSLOG_IMAGE is the access-log sidecar's; unset, the router's.
	config := configclient.NewForConfigOrDie(cfg)
	r := &ingressoperator.Reconciler{
		Kube: kube, Operator: operatorclient.NewForConfigOrDie(cfg), Routes: routeclient.NewForConfigOrDie(cfg), Config: config,
		RouterImage: os.Getenv("IMAGE"), SyslogImage: os.Getenv(ingressoperator.SyslogImageEnv), Logf: log.Printf,
	}
	routes := &componentroutes.Reconciler{Kube: kube, Config: config, Logf: log.Printf}
	// The service-ca operator's serving-cert controller, stood in for.
	servingCerts := &serviceca.Controller{Kube: kube, Logf: log.Printf}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log.Printf("reconciling IngressControllers of %s into Deployments of %s, the Ingress config's component routes into RBAC in %s, and annotated Services into serving certificates of the service CA in %s/%s",
		ingressoperator.OperatorNamespace, ingressoperator.RouterNamespace, componentroutes.SecretNamespace, serviceca.Namespace, serviceca.SigningKeySecret)
	// Any controller failing ends the process: the Deployment restarts it.
	errs := make(chan error, 3)
	go func() { errs <- r.Run(ctx) }()
	go func() { errs <- routes.Run(ctx) }()
	go func() { errs <- servingCerts.Run(ctx) }()
	if err := <-errs; err != nil {
		fmt.Fprintln(os.Stderr, "ingress-reconciler:", err)
		os.Exit(1)
	}
}
