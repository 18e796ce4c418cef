package images

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/daemon"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// Pushed is where a local image went: the reference by digest a cluster
// deploys, so what runs is exactly what was built.
type Pushed struct {
	Local  string
	Remote string // <repository>/<name>@sha256:...
}

// RemoteRef is where a component image goes under a repository prefix
// (registry.example/conformance → registry.example/conformance/echo:<tag>).
func RemoteRef(repository, local string) (name.Tag, error) {
	ref, err := name.ParseReference(local)
	if err != nil {
		return name.Tag{}, fmt.Errorf("image %s: %w", local, err)
	}
	repo := ref.Context().RepositoryStr()
	repo = repo[strings.LastIndex(repo, "/")+1:]
	tag := "latest"
	if t, ok := ref.(name.Tag); ok {
		tag = t.TagStr()
	}
	return name.NewTag(strings.TrimSuffix(repository, "/")+"/"+repo+":"+tag, name.WeakValidation)
}

// PushFromDocker pushes a local Docker image to repository and returns
// its reference by digest.
func PushFromDocker(ctx context.Context, local, repository string, opts ...remote.Option) (Pushed, error) {
	ref, err := name.ParseReference(local)
	if err != nil {
		return Pushed{}, fmt.Errorf("image %s: %w", local, err)
	}
	img, err := daemon.Image(ref, daemon.WithContext(ctx))
	if err != nil {
		return Pushed{}, fmt.Errorf("image %s: read it from the local Docker engine: %w", local, err)
	}
	return Push(ctx, img, local, repository, opts...)
}

// Push writes img (known locally as local) under repository.
func Push(ctx context.Context, img v1.Image, local, repository string, opts ...remote.Option) (Pushed, error) {
	dst, err := RemoteRef(repository, local)
	if err != nil {
		return Pushed{}, err
	}
	opts = append([]remote.Option{remote.WithContext(ctx)}, opts...)
	if err := remote.Write(dst, img, opts...); err != nil {
		return Pushed{}, registryError(dst, local, err)
	}
	digest, err := img.Digest()
	if err != nil {
		return Pushed{}, err
	}
	return Pushed{Local: local, Remote: dst.Context().Digest(digest.String()).String()}, nil
}

// Resolve finds an image pushed before (make push-images, or a lab's own
// mirroring) and returns its reference by digest.
func Resolve(ctx context.Context, local, repository string, opts ...remote.Option) (Pushed, error) {
	dst, err := RemoteRef(repository, local)
	if err != nil {
		return Pushed{}, err
	}
	opts = append([]remote.Option{remote.WithContext(ctx)}, opts...)
	desc, err := remote.Head(dst, opts...)
	if err != nil {
		return Pushed{}, registryError(dst, local, err)
	}
	return Pushed{Local: local, Remote: dst.Context().Digest(desc.Digest.String()).String()}, nil
}

// registryError is one line naming the registry, the image and what to do.
func registryError(dst name.Tag, local string, err error) error {
	registry := dst.RegistryStr()
	var terr *transport.Error
	if errors.As(err, &terr) {
		switch terr.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return fmt.Errorf("registry %s refused image %s (%s): HTTP %d: log in (docker login %s) or use a repository you may push to", registry, local, dst, terr.StatusCode, registry)
		case http.StatusNotFound:
			return fmt.Errorf("registry %s has no image %s (%s): push it first (make push-images IMAGE_REPOSITORY=%s)", registry, local, dst, dst.Context().RegistryStr()+"/"+strings.TrimSuffix(dst.RepositoryStr(), "/"+lastPart(dst.RepositoryStr())))
		}
	}
	msg := err.Error()
	if strings.Contains(msg, "x509:") || strings.Contains(msg, "tls:") || strings.Contains(msg, "server gave HTTP response to HTTPS client") {
		return fmt.Errorf("registry %s: TLS failed for image %s (%s): %v (a plain-HTTP registry must be on localhost, or trusted by the system's CAs)", registry, local, dst, firstLine(msg))
	}
	return fmt.Errorf("registry %s unreachable for image %s (%s): %v", registry, local, dst, firstLine(msg))
}

func lastPart(repo string) string { return repo[strings.LastIndex(repo, "/")+1:] }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
