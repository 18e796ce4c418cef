#!/usr/bin/env bash
# build-base.sh: the router image's base, a Debian rootfs with HAProxy
# made with debootstrap and `docker import`ed (no registry). Cached by the
# hash of its inputs; prints the tag.
set -euo pipefail
cd "$(dirname "$0")/../.."
. images/lib.sh
. clusters/kind/versions.env
# The machine's own apt mirror (DEBIAN_MIRROR overrides it); not part of
# any hash: every mirror serves the same packages.
DEBIAN_MIRROR=$(clusters/host/debian-mirror.sh)
recipe() {
  local rootfs=$1 pkgs
  pkgs=$(grep -v '^#' router/image/packages.txt | paste -sd, -)
  debootstrap --variant=minbase --include="$pkgs" "$DEBIAN_SUITE" "$rootfs" "$DEBIAN_MIRROR" >"$rootfs.log" 2>&1 ||
    die "debootstrap failed; see $rootfs.log"
  local got
  got=$(dpkg-query --admindir="$rootfs/var/lib/dpkg" -W -f='${Version}' haproxy)
  [ "$got" = "$HAPROXY_VERSION" ] ||
    die "the Debian mirror's $DEBIAN_SUITE has haproxy $got; clusters/kind/versions.env pins HAPROXY_VERSION=$HAPROXY_VERSION: run the suite against $got, then change the pin"
  mkdir -p "$rootfs/var/lib/haproxy/router"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs/usr/share/doc" "$rootfs/usr/share/man" "$rootfs/usr/share/locale"
}
hash=$(hash_inputs router/image/packages.txt "-$DEBIAN_SUITE" "-$HAPROXY_VERSION" "-$(declare -f recipe)")
tag="$IMAGE_PREFIX/router-base:$DEBIAN_SUITE-$hash"
image_exists "$tag" || lock_builds router-base
if image_exists "$tag"; then
  log "$tag: cached"
else
  command -v debootstrap >/dev/null || clusters/host/ensure-packages.sh debootstrap=debootstrap
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  log "$tag: debootstrap $DEBIAN_SUITE with haproxy (about 1 min)"
  recipe "$work/rootfs"
  tar -C "$work/rootfs" -c . | docker import - "$tag" >/dev/null
fi
echo "$tag"
