# Shared helpers of the image builds: input hashing and cache look-ups.
# Source it; it sets no options of its own.

: "${E2E_CACHE_DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/router-conformance}"
export E2E_CACHE_DIR
# Every image the project builds is named under this prefix.
: "${IMAGE_PREFIX:=router-conformance}"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# hash_inputs FILE|DIR|-STRING ...: a short, stable hash of the contents of
# the files (directories recursively, in name order) and of literal strings
# (arguments starting with '-'). The same inputs always give the same hash.
hash_inputs() {
  local arg
  for arg in "$@"; do
    case "$arg" in
      -*) printf 'literal %s\n' "${arg#-}" ;;
      *)
        [ -e "$arg" ] || die "hash_inputs: $arg does not exist"
        find "$arg" -type f -print0 | LC_ALL=C sort -z | while IFS= read -r -d '' f; do
          printf 'file %s %s\n' "$f" "$(sha256sum <"$f" | cut -c1-64)"
        done ;;
    esac
  done | sha256sum | cut -c1-16
}

image_exists() { docker image inspect "$1" >/dev/null 2>&1; }
