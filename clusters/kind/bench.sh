#!/usr/bin/env bash
# bench.sh OUT: measures the hermetic cluster's figures and writes them to
# OUT.json and OUT.md:
#   node_image_cold  the whole node-image pipeline with empty stage caches
#                    (a fresh cache directory and image prefix; the Go build
#                    cache stays warm unless BENCH_COLD_GOCACHE=1)
#   node_image_warm  the same pipeline again: every stage cached
#   cluster_create   hermetic-kind up (warm images): create, seal, CoreDNS, Ready
#   cluster_delete   hermetic-kind down
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench.sh OUT-PREFIX}
mkdir -p "$(dirname "$out")"
. images/lib.sh

bench_cache=$(mktemp -d)
prefix=router-conformance-bench
cleanup() {
  rm -rf "$bench_cache"
  docker images --format '{{.Repository}}:{{.Tag}}' | grep "^$prefix/" | xargs -r docker rmi >/dev/null 2>&1 || true
}
trap cleanup EXIT
if [ "${BENCH_COLD_GOCACHE:-0}" = 1 ]; then export GOCACHE=$bench_cache/gocache; gocache=cold; else gocache=warm; fi

# seconds CMD...: runs CMD (stdout discarded) and prints its wall time, 0.1 s precision.
seconds() {
  local s e
  s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N)
  local ms=$(((e - s) / 1000000))
  printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100))
}

go build -o bin/hermetic-kind ./clusters/kind/cmd/hermetic-kind
clusters/host/ensure-docker.sh
log "bench: node image, cold stages (Go build cache $gocache)"
cold=$(E2E_CACHE_DIR=$bench_cache IMAGE_PREFIX=$prefix seconds clusters/kind/nodeimage/build.sh)
log "bench: node image, warm"
warm=$(E2E_CACHE_DIR=$bench_cache IMAGE_PREFIX=$prefix seconds clusters/kind/nodeimage/build.sh)
node_image=$(clusters/kind/nodeimage/build.sh 2>/dev/null)
log "bench: cluster create"
create=$(seconds bin/hermetic-kind up -name rc-bench -node-image "$node_image")
log "bench: cluster delete"
delete=$(seconds bin/hermetic-kind down -name rc-bench -node-image "$node_image")

printf '{"date":"%s","cores":%s,"go_build_cache":"%s","node_image_cold_s":%s,"node_image_warm_s":%s,"cluster_create_s":%s,"cluster_delete_s":%s}\n' \
  "$(date -u +%FT%TZ)" "$(nproc)" "$gocache" "$cold" "$warm" "$create" "$delete" >"$out.json"
cat >"$out.md" <<MD
# Hermetic cluster bench ($(date -u +%F), $(nproc) cores)

| figure | seconds |
|---|---|
| node image, cold stages (Go build cache $gocache) | $cold |
| node image, warm (everything cached) | $warm |
| cluster create (create, seal, CoreDNS, node Ready) | $create |
| cluster delete | $delete |
MD
cat "$out.md"
