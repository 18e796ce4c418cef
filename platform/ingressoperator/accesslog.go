package ingressoperator

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// spec.logging.access as cluster-ingress-operator renders it (upstream:
// pkg/operator/controller/ingress/deployment.go, desiredRouterDeployment
// and accessLoggingForIngressController; rsyslog_configmap.go;
// pkg/operator/controller/names.go, RsyslogConfigMapName): the router's
// environment, and for destination type Container a syslog sidecar
// container "logs" that receives on a Unix socket both containers share
// and writes the access log to its own standard output.
const (
	RouterLogLevelEnv                = "ROUTER_LOG_LEVEL"
	RouterLogMaxLengthEnv            = "ROUTER_LOG_MAX_LENGTH"
	RouterSyslogAddressEnv           = "ROUTER_SYSLOG_ADDRESS"
	RouterSyslogFormatEnv            = "ROUTER_SYSLOG_FORMAT"
	RouterLogFacilityEnv             = "ROUTER_LOG_FACILITY"
	RouterCaptureHTTPRequestHeaders  = "ROUTER_CAPTURE_HTTP_REQUEST_HEADERS"
	RouterCaptureHTTPResponseHeaders = "ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS"
	RouterCaptureHTTPCookie          = "ROUTER_CAPTURE_HTTP_COOKIE"
	RouterDontLogNullEnv             = "ROUTER_DONT_LOG_NULL"

	// SyslogImageEnv names the sidecar's image on the reconciler. Upstream
	// runs rsyslogd from the router image (which has it built in); the
	// suite's router images need not have it, so the stand-in runs the
	// suite's own (platform/syslog) when this is set, else the router's.
	SyslogImageEnv = "SYSLOG_IMAGE"

	rsyslogConfigVolume = "rsyslog-config"
	rsyslogSocketVolume = "rsyslog-socket"
	rsyslogConfigDir    = "/etc/rsyslog"
	rsyslogSocketDir    = "/var/lib/rsyslog"
	rsyslogConfigKey    = "rsyslog.conf"
	// rsyslogConfiguration is upstream's rsyslog.conf: the Unix socket in,
	// standard output out, messages up to 10k.
	rsyslogConfiguration = "$ModLoad imuxsock\n$SystemLogSocketName /var/lib/rsyslog/rsyslog.sock\n$ModLoad omstdout.so\n$MaxMessageSize 10k\n*.* :omstdout:\n"
)

// SidecarContainer is the access-log container's name (upstream:
// operatorv1.ContainerLoggingSidecarContainerName).
const SidecarContainer = operatorv1.ContainerLoggingSidecarContainerName

var accessLogEnvNames = []string{
	RouterLogLevelEnv, RouterLogMaxLengthEnv, RouterSyslogAddressEnv, RouterSyslogFormatEnv, RouterLogFacilityEnv,
	RouterCaptureHTTPRequestHeaders, RouterCaptureHTTPResponseHeaders, RouterCaptureHTTPCookie, RouterDontLogNullEnv,
}

func init() {
	for _, n := range accessLogEnvNames {
		managedEnv[n] = true
	}
}

// RsyslogConfigMapName is the sidecar's configuration in the router's
// namespace (upstream: rsyslog-conf-<name>).
func RsyslogConfigMapName(ic string) string { return "rsyslog-conf-" + ic }

// accessLogging is upstream's accessLoggingForIngressController: the
// IngressController's access logging when its destination is one the
// operator renders (Container; Syslog with its parameters), else nil.
func accessLogging(ic *operatorv1.IngressController) *operatorv1.AccessLogging {
	if ic.Spec.Logging == nil || ic.Spec.Logging.Access == nil {
		return nil
	}
	a := ic.Spec.Logging.Access
	switch a.Destination.Type {
	case operatorv1.ContainerLoggingDestinationType:
		return a
	case operatorv1.SyslogLoggingDestinationType:
		if a.Destination.Syslog != nil {
			return a
		}
	}
	return nil
}

// accessLogEnv is the router's environment for access logging, in
// upstream's order: the destination's variables, then the log format,
// the captured headers (name:maxLength, comma-separated), the captured
// cookie (the first only: name= for an exact match, the prefix otherwise;
// :maxLength, 256 by default) and ROUTER_DONT_LOG_NULL. It also says
// whether the sidecar runs.
func accessLogEnv(ic *operatorv1.IngressController) (env []corev1.EnvVar, sidecar bool) {
	a := accessLogging(ic)
	if a == nil {
		return nil, false
	}
	add := func(name, value string) { env = append(env, corev1.EnvVar{Name: name, Value: value}) }
	switch a.Destination.Type {
	case operatorv1.ContainerLoggingDestinationType:
		if c := a.Destination.Container; c != nil && c.MaxLength > 0 {
			add(RouterLogMaxLengthEnv, fmt.Sprint(c.MaxLength))
		}
		add(RouterSyslogAddressEnv, filepath.Join(rsyslogSocketDir, "rsyslog.sock"))
		add(RouterLogLevelEnv, "info")
		sidecar = true
	case operatorv1.SyslogLoggingDestinationType:
		s := a.Destination.Syslog
		if s.Facility != "" {
			add(RouterLogFacilityEnv, s.Facility)
		}
		if s.MaxLength > 0 {
			add(RouterLogMaxLengthEnv, fmt.Sprint(s.MaxLength))
		}
		add(RouterLogLevelEnv, "info")
		add(RouterSyslogAddressEnv, net.JoinHostPort(s.Address, fmt.Sprint(s.Port)))
	}
	if a.HttpLogFormat != "" {
		add(RouterSyslogFormatEnv, fmt.Sprintf("%q", a.HttpLogFormat))
	}
	if v := captureHeadersEnv(a.HTTPCaptureHeaders.Request); v != "" {
		add(RouterCaptureHTTPRequestHeaders, v)
	}
	if v := captureHeadersEnv(a.HTTPCaptureHeaders.Response); v != "" {
		add(RouterCaptureHTTPResponseHeaders, v)
	}
	if cookies := a.HTTPCaptureCookies; len(cookies) > 0 {
		c := cookies[0]
		name := c.NamePrefix
		if c.MatchType == operatorv1.CookieMatchTypeExact {
			name = c.Name + "="
		}
		maxLength := c.MaxLength
		if maxLength == 0 {
			maxLength = 256
		}
		add(RouterCaptureHTTPCookie, fmt.Sprintf("%s:%d", name, maxLength))
	}
	if a.LogEmptyRequests == operatorv1.LoggingPolicyIgnore {
		add(RouterDontLogNullEnv, "true")
	}
	return env, sidecar
}

// captureHeadersEnv is upstream's serializeCaptureHeaders.
func captureHeadersEnv(headers []operatorv1.IngressControllerCaptureHTTPHeader) string {
	var specs []string
	for _, h := range headers {
		specs = append(specs, fmt.Sprintf("%s:%d", h.Name, h.MaxLength))
	}
	return strings.Join(specs, ",")
}

// sidecarContainer is upstream's syslogContainer: rsyslogd in the
// foreground with the operator's configuration, upstream's requests. The
// API server's defaults are written out, so that a live Deployment
// compares equal to the rendered one.
func sidecarContainer(image string, suiteSidecar bool) corev1.Container {
	binary := "/sbin/rsyslogd"
	if suiteSidecar {
		// platform/syslog, built by images/build-go-image.sh as /syslog.
		binary = "/syslog"
	}
	return corev1.Container{
		Name:  SidecarContainer,
		Image: image,
		Command: []string{
			binary, "-n",
			"-i", "/tmp/rsyslog.pid",
			"-f", filepath.Join(rsyslogConfigDir, rsyslogConfigKey),
		},
		ImagePullPolicy: corev1.PullIfNotPresent,
		VolumeMounts: []corev1.VolumeMount{
			{Name: rsyslogConfigVolume, MountPath: rsyslogConfigDir},
			{Name: rsyslogSocketVolume, MountPath: rsyslogSocketDir},
		},
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("100m"),
			corev1.ResourceMemory: resource.MustParse("256Mi"),
		}},
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
	}
}

// applyAccessLog puts the sidecar, its two volumes and the router's mount
// of the socket into spec when the settings want them, and takes them out
// otherwise.
func applyAccessLog(spec *corev1.PodSpec, ic *operatorv1.IngressController, s Settings) {
	var containers []corev1.Container
	routerImage := ""
	for _, c := range spec.Containers {
		if c.Name == SidecarContainer {
			continue
		}
		if c.Name == RouterContainer {
			routerImage = c.Image
			var mounts []corev1.VolumeMount
			for _, m := range c.VolumeMounts {
				if m.Name != rsyslogSocketVolume {
					mounts = append(mounts, m)
				}
			}
			if s.AccessLogSidecar {
				mounts = append(mounts, corev1.VolumeMount{Name: rsyslogSocketVolume, MountPath: rsyslogSocketDir})
			}
			c.VolumeMounts = mounts
		}
		containers = append(containers, c)
	}
	var volumes []corev1.Volume
	for _, v := range spec.Volumes {
		if v.Name != rsyslogConfigVolume && v.Name != rsyslogSocketVolume {
			volumes = append(volumes, v)
		}
	}
	if s.AccessLogSidecar {
		image := s.SyslogImage
		if image == "" {
			image = routerImage
		}
		containers = append(containers, sidecarContainer(image, s.SyslogImage != ""))
		volumes = append(volumes,
			corev1.Volume{Name: rsyslogConfigVolume, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: RsyslogConfigMapName(ic.Name)},
				DefaultMode:          ptr.To[int32](0o644),
			}}},
			// Upstream: rsyslog cannot use a socket in the abstract
			// namespace, so the two containers share a directory.
			corev1.Volume{Name: rsyslogSocketVolume, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		)
	}
	spec.Containers = containers
	spec.Volumes = volumes
}

// ensureRsyslogConfigMap is upstream's: the sidecar's configuration exists,
// owned by the router Deployment, while the IngressController logs to a
// container, and is deleted otherwise.
func (r *Reconciler) ensureRsyslogConfigMap(ctx context.Context, ic *operatorv1.IngressController, d *appsv1.Deployment, want bool) error {
	cms := r.Kube.CoreV1().ConfigMaps(RouterNamespace)
	name := RsyslogConfigMapName(ic.Name)
	cur, err := cms.Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if !want {
			return nil
		}
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: RouterNamespace,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID}}},
			Data: map[string]string{rsyslogConfigKey: rsyslogConfiguration},
		}
		_, err = cms.Create(ctx, cm, metav1.CreateOptions{})
		return err
	case err != nil:
		return err
	case !want:
		err := cms.Delete(ctx, name, metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	case cur.Data[rsyslogConfigKey] == rsyslogConfiguration && len(cur.Data) == 1:
		return nil
	}
	cur.Data = map[string]string{rsyslogConfigKey: rsyslogConfiguration}
	_, err = cms.Update(ctx, cur, metav1.UpdateOptions{})
	return err
}
