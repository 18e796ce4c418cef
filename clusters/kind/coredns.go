package kind

import (
	"context"
	"fmt"
	"net/netip"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/internal/kubeapply"
)

// DNSSealMarker is the SOA name in every answer CoreDNS gives for a name
// outside the cluster: an NXDOMAIN carrying it was made by CoreDNS itself,
// not forwarded.
const DNSSealMarker = "hermetic-cluster-dns.invalid."

// Corefile answers cluster.local (and reverse look-ups of cluster IPs) from
// the Kubernetes API and every other name with NXDOMAIN. It has no forward
// plugin: no query ever leaves the cluster.
const Corefile = `cluster.local:53 in-addr.arpa:53 ip6.arpa:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        ttl 30
    }
    cache 30
    loop
    reload
    loadbalance
}
.:53 {
    errors
    template ANY ANY {
        rcode NXDOMAIN
        authority "{{ .Zone }} 60 IN SOA ` + DNSSealMarker + ` hostmaster.` + DNSSealMarker + ` 1 60 60 60 60"
    }
}
`

// ClusterDNSIP is the tenth address of the Service subnet, where kubeadm
// points every kubelet's clusterDNS.
func ClusterDNSIP(serviceSubnet string) (string, error) {
	p, err := netip.ParsePrefix(serviceSubnet)
	if err != nil {
		return "", fmt.Errorf("service subnet %q: %w", serviceSubnet, err)
	}
	a := p.Masked().Addr()
	for i := 0; i < 10; i++ {
		a = a.Next()
	}
	return a.String(), nil
}

// CoreDNSObjects are what kubeadm's CoreDNS addon would create, with the
// sealed Corefile.
func CoreDNSObjects(v Versions) ([]k8s.Object, error) {
	dnsIP, err := ClusterDNSIP(v.ServiceSubnet)
	if err != nil {
		return nil, err
	}
	const ns, name = metav1.NamespaceSystem, "coredns"
	labels := map[string]string{"k8s-app": "kube-dns"}
	meta := func(n string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: n, Namespace: ns, Labels: labels} }
	clusterRole := "system:coredns"
	return []k8s.Object{
		&corev1.ServiceAccount{ObjectMeta: meta(name)},
		&rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: clusterRole},
			Rules: []rbacv1.PolicyRule{
				{APIGroups: []string{""}, Resources: []string{"endpoints", "services", "pods", "namespaces"}, Verbs: []string{"list", "watch"}},
				{APIGroups: []string{discoveryv1.GroupName}, Resources: []string{"endpointslices"}, Verbs: []string{"list", "watch"}},
			},
		},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: clusterRole},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: clusterRole},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: ns}},
		},
		&corev1.ConfigMap{ObjectMeta: meta(name), Data: map[string]string{"Corefile": Corefile}},
		&appsv1.Deployment{
			ObjectMeta: meta(name),
			Spec: appsv1.DeploymentSpec{
				Replicas: ptr.To[int32](1),
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{
						ServiceAccountName: name,
						PriorityClassName:  "system-cluster-critical",
						DNSPolicy:          corev1.DNSDefault,
						Tolerations: []corev1.Toleration{
							{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule},
							{Key: "CriticalAddonsOnly", Operator: corev1.TolerationOpExists},
						},
						Containers: []corev1.Container{{
							Name:            name,
							Image:           "registry.k8s.io/coredns/coredns:" + v.CoreDNS,
							ImagePullPolicy: corev1.PullNever,
							Args:            []string{"-conf", "/etc/coredns/Corefile"},
							Ports: []corev1.ContainerPort{
								{Name: "dns", ContainerPort: 53, Protocol: corev1.ProtocolUDP},
								{Name: "dns-tcp", ContainerPort: 53, Protocol: corev1.ProtocolTCP},
							},
							Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
								corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("32Mi"),
							}},
							VolumeMounts:   []corev1.VolumeMount{{Name: "config", MountPath: "/etc/coredns", ReadOnly: true}},
							ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromInt32(8181)}}, PeriodSeconds: 2},
							LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/health", Port: intstr.FromInt32(8080)}}, InitialDelaySeconds: 30},
							SecurityContext: &corev1.SecurityContext{
								AllowPrivilegeEscalation: ptr.To(false),
								ReadOnlyRootFilesystem:   ptr.To(true),
								Capabilities:             &corev1.Capabilities{Add: []corev1.Capability{"NET_BIND_SERVICE"}, Drop: []corev1.Capability{"ALL"}},
							},
						}},
						Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
							LocalObjectReference: corev1.LocalObjectReference{Name: name},
						}}}},
					},
				},
			},
		},
		&corev1.Service{
			ObjectMeta: meta("kube-dns"),
			Spec: corev1.ServiceSpec{
				Selector:  labels,
				ClusterIP: dnsIP,
				Ports: []corev1.ServicePort{
					{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(53)},
					{Name: "dns-tcp", Port: 53, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(53)},
				},
			},
		},
	}, nil
}

// InstallCoreDNS creates (or updates) the sealed CoreDNS and waits until
// it is ready.
func InstallCoreDNS(ctx context.Context, r *resources.Resources, v Versions, t contract.Timeouts) error {
	objs, err := CoreDNSObjects(v)
	if err != nil {
		return err
	}
	for _, obj := range objs {
		if err := kubeapply.Apply(ctx, r, obj); err != nil {
			return fmt.Errorf("install CoreDNS: %w", err)
		}
	}
	err = wait.PollUntilContextTimeout(ctx, t.ProvisionPoll, t.ClusterReady, true, func(ctx context.Context) (bool, error) {
		var d appsv1.Deployment
		if err := r.Get(ctx, "coredns", metav1.NamespaceSystem, &d); err != nil {
			return false, nil
		}
		return d.Status.ObservedGeneration >= d.Generation && d.Status.ReadyReplicas >= 1 && d.Status.UpdatedReplicas == d.Status.Replicas, nil
	})
	if err != nil {
		return fmt.Errorf("CoreDNS not ready within %s (kubectl -n kube-system describe deploy/coredns): %w", t.ClusterReady, err)
	}
	return nil
}
