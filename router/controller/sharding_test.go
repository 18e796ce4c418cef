package controller

import (
	stdslices "slices"
	"testing"

	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

func namespaceLister(t *testing.T, namespaces ...*corev1.Namespace) corelisters.NamespaceLister {
	t.Helper()
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, ns := range namespaces {
		if err := idx.Add(ns); err != nil {
			t.Fatal(err)
		}
	}
	return corelisters.NewNamespaceLister(idx)
}

func names(routes []*routev1.Route) []string {
	var out []string
	for _, r := range routes {
		out = append(out, r.Namespace+"/"+r.Name)
	}
	return out
}

// A route is served when both selectors match: its labels the route
// selector, its namespace's labels the namespace selector. A namespace
// the cache does not hold (filtered out by the API server, or gone) is
// not served; without selectors everything is.
func TestSelectedRoutes(t *testing.T) {
	routes := []*routev1.Route{
		shardRoute("in", "public", "a.test", "s", map[string]string{"type": "public"}),
		shardRoute("in", "internal", "b.test", "s", map[string]string{"type": "internal"}),
		shardRoute("in", "bare", "c.test", "s", nil),
		shardRoute("out", "public", "d.test", "s", map[string]string{"type": "public"}),
		shardRoute("unknown", "public", "e.test", "s", map[string]string{"type": "public"}),
	}
	lister := namespaceLister(t,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "in", Labels: map[string]string{"shard": "a"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "out", Labels: map[string]string{"shard": "b"}}},
	)
	notInternal, err := labels.Parse("type!=internal")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		route, nsel labels.Selector
		want        []string
	}{
		{"no selectors", nil, nil, []string{"in/public", "in/internal", "in/bare", "out/public", "unknown/public"}},
		{"route selector", labels.SelectorFromSet(labels.Set{"type": "public"}), nil, []string{"in/public", "out/public", "unknown/public"}},
		{"route selector with !=", notInternal, nil, []string{"in/public", "in/bare", "out/public", "unknown/public"}},
		{"namespace selector", nil, labels.SelectorFromSet(labels.Set{"shard": "a"}), []string{"in/public", "in/internal", "in/bare"}},
		{"both", labels.SelectorFromSet(labels.Set{"type": "public"}), labels.SelectorFromSet(labels.Set{"shard": "a"}), []string{"in/public"}},
	} {
		c := &Controller{RouteSelector: tc.route, NamespaceSelector: tc.nsel, namespaceLister: lister}
		if got := names(c.selectedRoutes(routes)); !stdslices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// Before the namespace cache exists nothing is served under a selector.
	c := &Controller{NamespaceSelector: labels.Everything()}
	if c.namespaceSelected("in") {
		t.Error("a namespace served without the namespace cache")
	}
}
