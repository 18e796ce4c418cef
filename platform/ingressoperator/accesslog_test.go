package ingressoperator

import (
	"context"
	"reflect"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestAccessLogToAContainerFollowsTheUpstreamOperator(t *testing.T) {
	c := ic(func(c *operatorv1.IngressController) {
		c.Spec.Logging = &operatorv1.IngressControllerLogging{Access: &operatorv1.AccessLogging{
			Destination: operatorv1.LoggingDestination{Type: operatorv1.ContainerLoggingDestinationType,
				Container: &operatorv1.ContainerLoggingDestinationParameters{MaxLength: 2048}},
			HttpLogFormat: `%ci "%r"`,
			HTTPCaptureHeaders: operatorv1.IngressControllerCaptureHTTPHeaders{
				Request:  []operatorv1.IngressControllerCaptureHTTPHeader{{Name: "X-A", MaxLength: 10}, {Name: "X-B", MaxLength: 20}},
				Response: []operatorv1.IngressControllerCaptureHTTPHeader{{Name: "X-C", MaxLength: 30}},
			},
			HTTPCaptureCookies: []operatorv1.IngressControllerCaptureHTTPCookie{{IngressControllerCaptureHTTPCookieUnion: operatorv1.IngressControllerCaptureHTTPCookieUnion{
				MatchType: operatorv1.CookieMatchTypeExact, Name: "session"}}},
			LogEmptyRequests: operatorv1.LoggingPolicyIgnore,
		}}
	})
	s := desired(t, c)
	got := env(s)
	for name, want := range map[string]string{
		"ROUTER_LOG_MAX_LENGTH":                "2048",
		"ROUTER_SYSLOG_ADDRESS":                "/var/lib/rsyslog/rsyslog.sock",
		"ROUTER_LOG_LEVEL":                     "info",
		"ROUTER_SYSLOG_FORMAT":                 `"%ci \"%r\""`,
		"ROUTER_CAPTURE_HTTP_REQUEST_HEADERS":  "X-A:10,X-B:20",
		"ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS": "X-C:30",
		"ROUTER_CAPTURE_HTTP_COOKIE":           "session=:256",
		"ROUTER_DONT_LOG_NULL":                 "true",
	} {
		if got[name] != want {
			t.Errorf("%s=%q, want %q", name, got[name], want)
		}
	}
	if _, ok := got["ROUTER_LOG_FACILITY"]; ok {
		t.Error("ROUTER_LOG_FACILITY set for a container destination")
	}
	if !s.AccessLogSidecar {
		t.Fatal("no sidecar")
	}
	s.SyslogImage = "syslog:test"
	d := RouterDeployment(RouterDeploymentOptions{IngressController: "default", Image: "router:test", Domain: "apps.test"})
	if !Apply(d, c, s) {
		t.Fatal("Apply changed nothing")
	}
	pod := d.Spec.Template.Spec
	if len(pod.Containers) != 2 || pod.Containers[1].Name != "logs" || pod.Containers[1].Image != "syslog:test" {
		t.Fatalf("containers %+v", pod.Containers)
	}
	if cmd := pod.Containers[1].Command; !reflect.DeepEqual(cmd, []string{"/syslog", "-n", "-i", "/tmp/rsyslog.pid", "-f", "/etc/rsyslog/rsyslog.conf"}) {
		t.Errorf("sidecar command %q", cmd)
	}
	mounted := false
	for _, m := range pod.Containers[0].VolumeMounts {
		mounted = mounted || (m.Name == "rsyslog-socket" && m.MountPath == "/var/lib/rsyslog")
	}
	if !mounted {
		t.Error("the router does not mount the socket's directory")
	}
	vols := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		vols[v.Name] = v
	}
	if v := vols["rsyslog-config"]; v.ConfigMap == nil || v.ConfigMap.Name != "rsyslog-conf-default" {
		t.Errorf("rsyslog-config volume %+v", v)
	}
	if v := vols["rsyslog-socket"]; v.EmptyDir == nil {
		t.Errorf("rsyslog-socket volume %+v", v)
	}
	if Apply(d, c, s) {
		t.Error("a second Apply changed the Deployment")
	}

	// Without a sidecar image: the router's, with upstream's rsyslogd.
	s.SyslogImage = ""
	Apply(d, c, s)
	if side := d.Spec.Template.Spec.Containers[1]; side.Image != "router:test" || side.Command[0] != "/sbin/rsyslogd" {
		t.Errorf("sidecar without SYSLOG_IMAGE: %s %q", side.Image, side.Command)
	}

	// Logging removed: everything goes.
	off := ic(nil)
	Apply(d, off, desired(t, off))
	pod = d.Spec.Template.Spec
	if len(pod.Containers) != 1 || len(pod.Containers[0].VolumeMounts) != 4 {
		t.Errorf("after logging was removed: containers %d, router mounts %+v", len(pod.Containers), pod.Containers[0].VolumeMounts)
	}
	for _, v := range pod.Volumes {
		if v.Name == "rsyslog-config" || v.Name == "rsyslog-socket" {
			t.Errorf("volume %s left", v.Name)
		}
	}
	for _, e := range pod.Containers[0].Env {
		if e.Name == "ROUTER_SYSLOG_ADDRESS" || e.Name == "ROUTER_CAPTURE_HTTP_REQUEST_HEADERS" {
			t.Errorf("%s left", e.Name)
		}
	}
}

func TestAccessLogToSyslog(t *testing.T) {
	c := ic(func(c *operatorv1.IngressController) {
		c.Spec.Logging = &operatorv1.IngressControllerLogging{Access: &operatorv1.AccessLogging{
			Destination: operatorv1.LoggingDestination{Type: operatorv1.SyslogLoggingDestinationType,
				Syslog: &operatorv1.SyslogLoggingDestinationParameters{Address: "10.0.0.1", Port: 514, Facility: "local2"}},
		}}
	})
	s := desired(t, c)
	got := env(s)
	if got["ROUTER_SYSLOG_ADDRESS"] != "10.0.0.1:514" || got["ROUTER_LOG_FACILITY"] != "local2" || got["ROUTER_LOG_LEVEL"] != "info" || s.AccessLogSidecar {
		t.Errorf("env %v, sidecar %v", got, s.AccessLogSidecar)
	}
}

// The sidecar's configuration is upstream's ConfigMap, owned by the router
// Deployment, while the IngressController logs to a container; gone after.
func TestReconcileKeepsTheRsyslogConfigMap(t *testing.T) {
	ctx := context.Background()
	c := shard("s1", hostNetwork(10080, 10443, 11936))
	logToContainerForTest(c)
	r := newReconciler([]*operatorv1.IngressController{c}, render("router:under-test"))
	r.SyslogImage = "syslog:test"
	if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	cm, err := r.Kube.CoreV1().ConfigMaps(RouterNamespace).Get(ctx, "rsyslog-conf-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cm.Data["rsyslog.conf"] != rsyslogConfiguration || len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].Name != "router-s1" {
		t.Errorf("ConfigMap %+v", cm)
	}
	d, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cs := d.Spec.Template.Spec.Containers; len(cs) != 2 || cs[1].Image != "syslog:test" {
		t.Errorf("containers %+v", cs)
	}
	live := r.stored(t, "s1")
	live.Spec.Logging = nil
	if err := r.Reconcile(ctx, live); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Kube.CoreV1().ConfigMaps(RouterNamespace).Get(ctx, "rsyslog-conf-s1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("ConfigMap after logging was removed: %v", err)
	}
}

func logToContainerForTest(c *operatorv1.IngressController) {
	c.Spec.Logging = &operatorv1.IngressControllerLogging{Access: &operatorv1.AccessLogging{
		Destination: operatorv1.LoggingDestination{Type: operatorv1.ContainerLoggingDestinationType},
	}}
}
