package images

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestManifestRoundTripAndRefusals(t *testing.T) {
	m := Manifest{Images: []ManifestImage{
		{Name: NodeImageName, Ref: "router-conformance/node:abc", ID: "sha256:1"},
		{Name: "echo", Ref: "router-conformance/echo:def", ID: "sha256:2"},
	}}
	path := filepath.Join(t.TempDir(), "images.json")
	if err := WriteManifest(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	if img, ok := got.Lookup("echo"); !ok || img.Ref != "router-conformance/echo:def" {
		t.Errorf("Lookup(echo) = %v, %v", img, ok)
	}
	if _, ok := got.Lookup("probe"); ok {
		t.Error("Lookup(probe) found an image the manifest lacks")
	}
	if refs := got.Refs(); len(refs) != 2 || refs[0] != "router-conformance/node:abc" {
		t.Errorf("Refs() = %q", refs)
	}
	for _, tc := range []struct {
		m    Manifest
		want string
	}{
		{Manifest{}, "lists no images"},
		{Manifest{Images: []ManifestImage{{Name: "echo", Ref: "x"}}}, `image 0 ("echo") lacks its name, ref or id`},
		{Manifest{Images: []ManifestImage{m.Images[1], m.Images[1]}}, `image "echo" is listed twice`},
	} {
		if err := tc.m.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%v) = %v, want %q", tc.m, err, tc.want)
		}
	}
}
