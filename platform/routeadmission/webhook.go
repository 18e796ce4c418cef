package routeadmission

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	routecommon "github.com/openshift/library-go/pkg/route"
	"github.com/openshift/library-go/pkg/route/validation"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/router-conformance/suite/faults"
)

// Cluster is what the webhook reads: the Ingress config's policies and
// the route's namespace. Either one that cannot be read (a missing
// Ingress "cluster" included) refuses every route the policies would be
// checked for, as Forbidden with the reader's error, as upstream's
// plugin does (openshift-apiserver
// pkg/route/apiserver/admission/requiredrouteannotations/admission.go,
// Validate: admission.NewForbidden of the lister's error).
type Cluster interface {
	RequiredHSTSPolicies(ctx context.Context) ([]configv1.RequiredHSTSPolicy, error)
	Namespace(ctx context.Context, name string) (*corev1.Namespace, error)
}

// Webhook validates Route creates and updates.
type Webhook struct {
	Cluster Cluster
	// Secrets is handed to ValidateRoute (used only for external
	// certificates, which this router does not enable).
	Secrets corev1client.SecretsGetter
	Log     *log.Logger
}

// MaxRequestBytes bounds an AdmissionReview.
const MaxRequestBytes = 4 << 20

func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	serveReview(w, r, func(req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		ctx, cancel := context.WithTimeout(r.Context(), 4*time.Second)
		defer cancel()
		return h.Review(ctx, req)
	})
}

// serveReview reads one AdmissionReview, answers it with decide and
// writes it back: the API server's side of every webhook here.
func serveReview(w http.ResponseWriter, r *http.Request, decide func(*admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST an AdmissionReview", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil {
		http.Error(w, fmt.Sprintf("not an admission.k8s.io/v1 AdmissionReview: %v", err), http.StatusBadRequest)
		return
	}
	resp := decide(review.Request)
	resp.UID = review.Request.UID
	review.Response, review.Request = resp, nil
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(review)
}

// Review decides one request.
func (h *Webhook) Review(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	deny := func(code int32, msg string) *admissionv1.AdmissionResponse {
		if h.Log != nil {
			h.Log.Printf("denied %s route %s/%s: %s", req.Operation, req.Namespace, req.Name, msg)
		}
		return &admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{Status: metav1.StatusFailure, Code: code, Reason: metav1.StatusReasonForbidden, Message: msg}}
	}
	if req.Kind.Group != routev1.GroupName || req.Kind.Kind != "Route" {
		return &admissionv1.AdmissionResponse{Allowed: true}
	}
	var route, old routev1.Route
	if err := json.Unmarshal(req.Object.Raw, &route); err != nil {
		return deny(http.StatusBadRequest, "cannot decode the route: "+err.Error())
	}
	var oldRoute *routev1.Route
	if req.Operation == admissionv1.Update {
		if err := json.Unmarshal(req.OldObject.Raw, &old); err != nil {
			return deny(http.StatusBadRequest, "cannot decode the old route: "+err.Error())
		}
		oldRoute = &old
		// Status updates go through the status subresource, never here.
	}
	if route.Namespace == "" {
		route.Namespace = req.Namespace
	}
	opts := routecommon.RouteValidationOptions{}
	errs := validation.ValidateRoute(ctx, &route, nil, h.Secrets, opts)
	if oldRoute != nil {
		errs = validation.ValidateRouteUpdate(ctx, &route, oldRoute, nil, h.Secrets, opts)
	}
	if len(errs) > 0 {
		return deny(http.StatusUnprocessableEntity, errs.ToAggregate().Error())
	}
	if msg := headerActionsReviewFault(&route); msg != "" {
		return deny(http.StatusUnprocessableEntity, msg)
	}
	if !HSTSCheckNeeded(&route, oldRoute) {
		return &admissionv1.AdmissionResponse{Allowed: true}
	}
	policies, err := h.Cluster.RequiredHSTSPolicies(ctx)
	if err != nil {
		return deny(http.StatusForbidden, err.Error())
	}
	ns, err := h.Cluster.Namespace(ctx, route.Namespace)
	if err != nil {
		return deny(http.StatusForbidden, err.Error())
	}
	if err := CheckRequiredHSTS(policies, &route, ns); err != nil {
		if faults.On("hsts.policy-refusal-not-forbidden") {
			return deny(http.StatusBadRequest, err.Error())
		}
		return deny(http.StatusForbidden, err.Error())
	}
	return &admissionv1.AdmissionResponse{Allowed: true}
}
