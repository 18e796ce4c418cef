package images

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
)

// NodeImageName is the kind node image's entry in a Manifest.
const NodeImageName = "node"

// Manifest lists prebuilt images by name: what a run uses instead of
// building (the suite's -images flag), and what an air-gapped kit
// carries in its images.tar. Each image is named by its local reference
// and pinned by its image ID (the digest of its config): a tag that now
// names another image is refused, not silently used.
type Manifest struct {
	Images []ManifestImage `json:"images"`
}

// ManifestImage is one image of a Manifest.
type ManifestImage struct {
	// Name is the suite's name for it: a Spec's Name, or NodeImageName.
	Name string `json:"name"`
	// Ref is the local reference (repository:tag) the run uses.
	Ref string `json:"ref"`
	// ID is Docker's image ID (sha256:...).
	ID string `json:"id"`
}

// Lookup returns the image name has, if the manifest lists it.
func (m Manifest) Lookup(name string) (ManifestImage, bool) {
	i := slices.IndexFunc(m.Images, func(img ManifestImage) bool { return img.Name == name })
	if i < 0 {
		return ManifestImage{}, false
	}
	return m.Images[i], true
}

// Refs are the references of every image, in the manifest's order.
func (m Manifest) Refs() []string {
	refs := make([]string, len(m.Images))
	for i, img := range m.Images {
		refs[i] = img.Ref
	}
	return refs
}

// Validate reports a manifest that cannot be used: an entry without a
// name, reference or ID, or a name twice.
func (m Manifest) Validate() error {
	if len(m.Images) == 0 {
		return errors.New("it lists no images")
	}
	seen := map[string]bool{}
	for i, img := range m.Images {
		if img.Name == "" || img.Ref == "" || img.ID == "" {
			return fmt.Errorf("image %d (%q) lacks its name, ref or id", i, img.Name)
		}
		if seen[img.Name] {
			return fmt.Errorf("image %q is listed twice", img.Name)
		}
		seen[img.Name] = true
	}
	return nil
}

// ReadManifest reads and validates a manifest file.
func ReadManifest(path string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(path)
	if err != nil {
		return m, fmt.Errorf("image manifest: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("image manifest %s is not JSON of the suite's image list: %w", path, err)
	}
	if err := m.Validate(); err != nil {
		return m, fmt.Errorf("image manifest %s: %w", path, err)
	}
	return m, nil
}

// WriteManifest writes m as indented JSON.
func WriteManifest(path string, m Manifest) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("image manifest: %w", err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ManifestOf describes local images (name -> reference) as a Manifest,
// in the order of names.
func ManifestOf(ctx context.Context, names []string, refs map[string]string) (Manifest, error) {
	var m Manifest
	for _, n := range names {
		ref, ok := refs[n]
		if !ok {
			return m, fmt.Errorf("image manifest: no image named %q", n)
		}
		img, err := Inspect(ctx, ref)
		if err != nil {
			return m, err
		}
		m.Images = append(m.Images, ManifestImage{Name: n, Ref: ref, ID: img.ID})
	}
	return m, nil
}

// Missing returns the images of m that the local Docker engine lacks, or
// holds under their reference as another image (another ID).
func (m Manifest) Missing(ctx context.Context) ([]ManifestImage, error) {
	var missing []ManifestImage
	for _, want := range m.Images {
		got, err := Inspect(ctx, want.Ref)
		var notLocal ErrNotLocal
		switch {
		case errors.As(err, &notLocal):
			missing = append(missing, want)
		case err != nil:
			return nil, err
		case got.ID != want.ID:
			missing = append(missing, want)
		}
	}
	return missing, nil
}

// Present checks that the local Docker engine holds every image of m as
// listed; the error names the first that is not and what to do.
func (m Manifest) Present(ctx context.Context, source string) error {
	missing, err := m.Missing(ctx)
	if err != nil {
		return err
	}
	if len(missing) == 0 {
		return nil
	}
	img := missing[0]
	return fmt.Errorf("image %s (%s, %s) of %s is not in the local Docker engine as listed: load the images that came with it (docker load -i images.tar; a kit's ./run does it)", img.Name, img.Ref, img.ID, source)
}
