#!/usr/bin/env bash
# build-go-image.sh NAME PACKAGE [ARGS...]: builds the Go command PACKAGE as
# a static binary into an image $IMAGE_PREFIX/NAME:<input hash>, FROM
# scratch unless BASE_IMAGE names a local image, run as IMAGE_USER
# (default 65534:65534), unless an image with that tag exists already
# (IMAGE_REBUILD=1: build it anyway, over whatever the tag holds).
# BUILD_TAGS: Go build tags of a test-only build (the fault points), which
# the image carries in its label io.router-conformance.test-only.
# Prints the tag on stdout. Inputs hashed: go.mod, go.sum, the Go version,
# the repository's Go files the command depends on, the base, the user,
# the build tags, and this script.
set -euo pipefail
cd "$(dirname "$0")/.."
. images/lib.sh

[ $# -ge 2 ] || die "usage: $0 NAME PACKAGE [ENTRYPOINT-ARGS...]"
name=$1 pkg=$2; shift 2
base=${BASE_IMAGE:-scratch}
user=${IMAGE_USER:-65534:65534}
tags=${BUILD_TAGS:-}

# Directories of the repository's packages the command imports (module
# dependencies are pinned by go.sum).
mapfile -t dirs < <(go list -tags "$tags" -deps -f '{{if not .Standard}}{{if not .Module}}{{.Dir}}{{else if .Module.Main}}{{.Dir}}{{end}}{{end}}' "$pkg" | sed "s|^$PWD/||" | LC_ALL=C sort -u)
[ ${#dirs[@]} -gt 0 ] || die "go list found no package $pkg"
files=()
for d in "${dirs[@]}"; do
  for f in "$d"/*.go; do case "$f" in *_test.go) ;; *) files+=("$f") ;; esac; done
done
hash=$(hash_inputs go.mod go.sum images/build-go-image.sh "-$(go version)" "-args=$*" "-base=$base" "-user=$user" "-tags=$tags" "${files[@]}")
tag="$IMAGE_PREFIX/$name:$hash"

if [ -z "${IMAGE_REBUILD:-}" ] && image_exists "$tag"; then
  log "$tag: cached"
else
  log "$tag: building $pkg"
  ctx=$(mktemp -d)
  trap 'rm -rf "$ctx"' EXIT
  CGO_ENABLED=0 go build -tags "$tags" -trimpath -ldflags '-s -w' -o "$ctx/$name" "$pkg"
  entry="\"/$name\""
  for a in "$@"; do entry="$entry, \"$a\""; done
  cat >"$ctx/Dockerfile" <<DOCKERFILE
FROM $base
COPY $name /$name
USER $user
ENTRYPOINT [$entry]
DOCKERFILE
  [ -z "$tags" ] || echo "LABEL io.router-conformance.test-only=\"$tags\"" >>"$ctx/Dockerfile"
  # The classic builder: FROM scratch (or a local base) needs no registry,
  # and BuildKit is not always present on an engine installed from Debian.
  out=$(DOCKER_BUILDKIT=0 docker build -q -t "$tag" "$ctx" 2>&1) || { printf '%s\n' "$out" >&2; die "docker build of $tag failed"; }
fi
docker tag "$tag" "$IMAGE_PREFIX/$name:latest"
echo "$tag"
