#!/usr/bin/env bash
# build.sh: the offline kind node-image pipeline. Builds, from Go modules
# and Debian packages only:
#   kubernetes  the seven Kubernetes binaries (nested module ./kubernetes)
#   components  etcd and pause (nested module ./components), CoreDNS
#   base        a debootstrapped Debian rootfs made into a kind base image
#   node        control-plane images preloaded into the base's containerd
# Each stage is keyed by the hash of its inputs (its recipe, i.e. its shell
# function, included) and skipped when its output exists; outputs are
# written to a temporary name and renamed when complete, so an interrupted
# run resumes where it stopped. Prints the node image's tag on stdout.
set -euo pipefail
cd "$(dirname "$0")/../../.."
. images/lib.sh
. clusters/kind/versions.env
# The machine's own apt mirror (DEBIAN_MIRROR overrides it); not part of
# any hash: every mirror serves the same packages.
DEBIAN_MIRROR=$(clusters/host/debian-mirror.sh)
NI=clusters/kind/nodeimage
STATE=$E2E_CACHE_DIR/nodeimage
mkdir -p "$STATE"
export GOFLAGS=-buildvcs=false CGO_ENABLED=0

fn_text() { declare -f "$1"; }

# --- kubernetes -------------------------------------------------------------
kubernetes_hash() {
  hash_inputs $NI/kubernetes/go.mod $NI/kubernetes/go.sum $NI/kubernetes/tools.go \
    "-$K8S_VERSION" "-$(go version)" "-$(fn_text build_kubernetes)"
}
build_kubernetes() { # OUT
  grep -q "^require k8s.io/kubernetes $K8S_VERSION\$" $NI/kubernetes/go.mod ||
    die "$NI/kubernetes/go.mod does not require k8s.io/kubernetes $K8S_VERSION (versions.env): update both together"
  local v=$K8S_VERSION major minor ld="-s -w" p
  major=${v#v}; major=${major%%.*}; minor=${v#v*.}; minor=${minor%%.*}
  # kubeadm refuses to run without a version stamped in.
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $p.gitVersion=$v -X $p.gitMajor=$major -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
    ld="$ld -X $p.gitCommit=0000000000000000000000000000000000000000 -X $p.buildDate=2026-01-01T00:00:00Z"
  done
  mkdir -p "$1"
  (cd $NI/kubernetes && go build -trimpath -ldflags "$ld" -o "$1/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-proxy \
    k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kubeadm k8s.io/kubernetes/cmd/kubectl)
}

# --- components ---------------------------------------------------------------
components_hash() {
  hash_inputs $NI/components "-$ETCD_VERSION" "-$COREDNS_VERSION" "-$(go version)" "-$(fn_text build_components)"
}
build_components() { # OUT
  grep -q "go.etcd.io/etcd/server/v3 $ETCD_VERSION\$" $NI/components/go.mod ||
    die "$NI/components/go.mod does not require etcd $ETCD_VERSION (versions.env): update both together"
  mkdir -p "$1"
  (cd $NI/components && go build -trimpath -ldflags '-s -w' -o "$1/" ./etcd ./pause)
  # CoreDNS brings its own go.mod; build it outside any module.
  (cd "$1" && GOFLAGS=-buildvcs=false GOBIN="$1" go install -trimpath -ldflags '-s -w' "github.com/coredns/coredns@$COREDNS_VERSION")
}

# --- base ---------------------------------------------------------------------
kind_base_files() {
  local dir
  dir=$(go mod download -json "sigs.k8s.io/kind@$KIND_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [ -d "$dir/images/base/files" ] || die "kind $KIND_VERSION base files not found (go mod download sigs.k8s.io/kind@$KIND_VERSION)"
  echo "$dir/images/base/files"
}
base_hash() {
  hash_inputs $NI/base "$(kind_base_files)" clusters/kind/versions.env "-$DEBIAN_SUITE" "-$(fn_text build_base)"
}
build_base() { # ROOTFS TAG
  command -v debootstrap >/dev/null || ensure_debootstrap
  local pkgs
  pkgs=$(grep -v '^#' $NI/base/packages.txt | paste -sd, -)
  rm -rf "$1"
  log "base: debootstrap $DEBIAN_SUITE from $DEBIAN_MIRROR (1-4 min)"
  debootstrap --variant=minbase --include="$pkgs" "$DEBIAN_SUITE" "$1" "$DEBIAN_MIRROR" >"$1.log" 2>&1 ||
    die "debootstrap failed; see $1.log"
  $NI/base/customize.sh "$1" "$(kind_base_files)"
  log "base: importing the rootfs into Docker"
  tar -C "$1" -c . | docker import -c 'ENV container=docker' \
    -c 'ENTRYPOINT ["/usr/local/bin/cgroup-rw-entrypoint", "/sbin/init"]' - "$2-import" >/dev/null
  # docker 20.10's import rejects STOPSIGNAL; add it with a build (no pull).
  local ctx; ctx=$(mktemp -d)
  printf 'FROM %s\nSTOPSIGNAL SIGRTMIN+3\n' "$2-import" >"$ctx/Dockerfile"
  DOCKER_BUILDKIT=0 docker build -q -t "$2" "$ctx" >/dev/null
  docker rmi "$2-import" >/dev/null
  rm -rf "$ctx"
}
ensure_debootstrap() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
    die "debootstrap is needed to build the node image: install it (Debian/Ubuntu: apt-get install debootstrap)"
  log "installing debootstrap (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
}

# --- control-plane images and the node ------------------------------------------
control_plane_images() {
  echo "registry.k8s.io/kube-apiserver:$K8S_VERSION registry.k8s.io/kube-controller-manager:$K8S_VERSION" \
    "registry.k8s.io/kube-scheduler:$K8S_VERSION registry.k8s.io/kube-proxy:$K8S_VERSION" \
    "registry.k8s.io/etcd:$ETCD_TAG registry.k8s.io/coredns/coredns:$COREDNS_VERSION registry.k8s.io/pause:$PAUSE_TAG"
}
scratch_image() { # TAG DIR ENTRYPOINT-JSON [EXTRA DOCKERFILE LINES]
  local tag=$1 dir=$2 entry=$3; shift 3
  { echo "FROM scratch"; echo "COPY . /"; printf '%s\n' "$@"; echo "ENTRYPOINT $entry"; } >"$dir/Dockerfile"
  local out
  out=$(DOCKER_BUILDKIT=0 docker build -q -t "$tag" "$dir" 2>&1) || { printf '%s\n' "$out" >&2; die "docker build $tag failed"; }
}
build_control_plane_images() { # K8S_BIN COMPONENTS_BIN ROOTFS WORK
  local kb=$1 cb=$2 rootfs=$3 w=$4 c
  rm -rf "$w"; mkdir -p "$w"
  for c in kube-apiserver kube-controller-manager kube-scheduler; do
    mkdir -p "$w/$c/usr/local/bin"; cp "$kb/$c" "$w/$c/usr/local/bin/"
    scratch_image "registry.k8s.io/$c:$K8S_VERSION" "$w/$c" "[\"/usr/local/bin/$c\"]"
  done
  # kube-proxy runs iptables (nft backend) and conntrack: copy them, every
  # xtables extension and every library they load from the Debian rootfs
  # (a missing libm breaks the statistic match, so multi-endpoint Services).
  local p=$w/kube-proxy lib
  mkdir -p "$p/usr/local/bin" "$p/usr/sbin" "$p/usr/lib/x86_64-linux-gnu" "$p/lib64" "$p/run" "$p/tmp" "$p/var/run" "$p/etc"
  cp "$kb/kube-proxy" "$p/usr/local/bin/"
  cp -L "$rootfs/usr/sbin/xtables-nft-multi" "$rootfs/usr/sbin/conntrack" "$p/usr/sbin/"
  for c in iptables iptables-save iptables-restore ip6tables ip6tables-save ip6tables-restore; do
    ln -sf xtables-nft-multi "$p/usr/sbin/$c"; ln -sf xtables-nft-multi "$p/usr/sbin/${c/tables/tables-nft}"
  done
  for lib in $(for c in /usr/sbin/xtables-nft-multi /usr/sbin/conntrack /usr/lib/x86_64-linux-gnu/xtables/*.so; do
      chroot "$rootfs" ldd "$c"; done | awk '/=>/ {print $3}' | sort -u); do
    cp -L "$rootfs$lib" "$p/usr/lib/x86_64-linux-gnu/"
  done
  cp -a "$rootfs/usr/lib/x86_64-linux-gnu/xtables" "$p/usr/lib/x86_64-linux-gnu/"
  cp -L "$rootfs/lib64/ld-linux-x86-64.so.2" "$p/lib64/"
  ln -s usr/lib "$p/lib"
  cp "$rootfs/etc/protocols" "$rootfs/etc/services" "$p/etc/"
  scratch_image "registry.k8s.io/kube-proxy:$K8S_VERSION" "$p" '["/usr/local/bin/kube-proxy"]'
  mkdir -p "$w/etcd/usr/local/bin" "$w/etcd/var/lib/etcd" "$w/etcd/tmp"; cp "$cb/etcd" "$w/etcd/usr/local/bin/"
  scratch_image "registry.k8s.io/etcd:$ETCD_TAG" "$w/etcd" '["/usr/local/bin/etcd"]'
  mkdir -p "$w/coredns"; cp "$cb/coredns" "$w/coredns/"
  scratch_image "registry.k8s.io/coredns/coredns:$COREDNS_VERSION" "$w/coredns" '["/coredns"]' "EXPOSE 53 53/udp"
  mkdir -p "$w/pause"; cp "$cb/pause" "$w/pause/"
  scratch_image "registry.k8s.io/pause:$PAUSE_TAG" "$w/pause" '["/pause"]' "USER 65535:65535"
}
build_node() { # BASE_TAG K8S_BIN WORK TAG
  local base=$1 kb=$2 w=$3 tag=$4 ctr=rc-nodeimage-build b
  # shellcheck disable=SC2046
  docker save $(control_plane_images) -o "$w/images.tar"
  docker rm -f "$ctr" >/dev/null 2>&1 || true
  "$DOCKER" run -d --name "$ctr" --privileged --entrypoint sleep "$base" infinity >/dev/null
  trap 'docker rm -f rc-nodeimage-build >/dev/null 2>&1 || true' EXIT
  for b in kubeadm kubelet kubectl; do docker cp "$kb/$b" "$ctr:/usr/bin/$b"; done
  docker exec "$ctr" sh -c "echo $K8S_VERSION >/kind/version && mkdir -p /kind/images"
  docker cp "$w/images.tar" "$ctr:/kind/images/images.tar"
  # Preload as kind build node-image does: content only, pinned.
  "$DOCKER" exec "$ctr" bash -c '
    set -e
    containerd >/tmp/containerd.log 2>&1 & pid=$!
    for _ in $(seq 1 100); do ctr version >/dev/null 2>&1 && break; sleep 0.2; done
    ctr -n k8s.io images import --label=io.cri-containerd.pinned=pinned --all-platforms --no-unpack --digests /kind/images/images.tar >/dev/null
    kill $pid; wait $pid || true
    rm -rf /kind/images/images.tar /tmp/containerd.log' || die "preloading the control-plane images into $ctr failed"
  docker commit -c 'ENTRYPOINT ["/usr/local/bin/cgroup-rw-entrypoint", "/sbin/init"]' -c 'CMD []' "$ctr" "$tag" >/dev/null
  docker rm -f "$ctr" >/dev/null
  rm -f "$w/images.tar"
}

# Runs the command as-is, or through the unprivileged shim on hosts where
# --privileged containers cannot start.
DOCKER=docker
if ! clusters/host/privileged-ok.sh; then DOCKER=clusters/host/docker-unprivileged; fi

main() {
  local kh ch bh nh node_tag base_tag
  kh=$(kubernetes_hash); ch=$(components_hash); bh=$(base_hash)
  nh=$(hash_inputs "-$kh" "-$ch" "-$bh" "-$(fn_text build_control_plane_images)" "-$(fn_text build_node)" "-$(control_plane_images)")
  node_tag="$IMAGE_PREFIX/kind-node:$K8S_VERSION-$nh"
  base_tag="$IMAGE_PREFIX/kind-base:$DEBIAN_SUITE-$bh"
  if image_exists "$node_tag"; then
    log "node image $node_tag: cached"
    echo "$node_tag"; return
  fi
  # One build of the state directory at a time, whichever checkout runs
  # it; the one that waited may find the node image built.
  lock_builds kind-node
  if image_exists "$node_tag"; then
    log "node image $node_tag: cached"
    echo "$node_tag"; return
  fi
  local kb=$STATE/kubernetes-$kh cb=$STATE/components-$ch rootfs=$STATE/base-$bh/rootfs
  if [ ! -f "$kb/.done" ]; then
    log "kubernetes $K8S_VERSION: building 7 binaries (about 10 min from a cold Go cache)"
    rm -rf "$kb.tmp"; build_kubernetes "$kb.tmp"; touch "$kb.tmp/.done"; rm -rf "$kb"; mv "$kb.tmp" "$kb"
  else log "kubernetes $K8S_VERSION: cached"; fi
  if [ ! -f "$cb/.done" ]; then
    log "components: etcd $ETCD_VERSION, pause, CoreDNS $COREDNS_VERSION (about 4 min from a cold Go cache)"
    rm -rf "$cb.tmp"; build_components "$cb.tmp"; touch "$cb.tmp/.done"; rm -rf "$cb"; mv "$cb.tmp" "$cb"
  else log "components: cached"; fi
  if ! image_exists "$base_tag" || [ ! -f "$rootfs.done" ]; then
    mkdir -p "$(dirname "$rootfs")"
    build_base "$rootfs" "$base_tag"; touch "$rootfs.done"
  else log "base $base_tag: cached"; fi
  log "control-plane images: building from the binaries"
  build_control_plane_images "$kb" "$cb" "$rootfs" "$STATE/images-work"
  log "node image: preloading the control-plane images"
  build_node "$base_tag" "$kb" "$STATE/images-work" "$node_tag"
  rm -rf "$STATE/images-work"
  log "node image $node_tag: built"
  echo "$node_tag"
}
main "$@"
