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
  local arg f rec item i=0
  local -a items=() files=() sums=()
  for arg in "$@"; do
    case "$arg" in
      -*) items+=("literal ${arg#-}") ;;
      *)
        [ -e "$arg" ] || die "hash_inputs: $arg does not exist"
        if [ -f "$arg" ] && [ ! -L "$arg" ]; then
          items+=("file $arg"); files+=("$arg")
        else
          while IFS= read -r -d '' f; do items+=("file $f"); files+=("$f"); done < <(find "$arg" -type f -print0 | LC_ALL=C sort -z)
        fi ;;
    esac
  done
  # One sha256sum for every file (a process or more per file took seconds
  # per image), each NUL-ended record "<64 hex>  <name>" in input order;
  # the lines hashed are the same as ever, so no tag moves.
  if [ ${#files[@]} -gt 0 ]; then
    while IFS= read -r -d '' rec; do sums+=("${rec:0:64}"); done < <(printf '%s\0' "${files[@]}" | xargs -0 sha256sum -z --)
  fi
  [ ${#sums[@]} -eq ${#files[@]} ] || die "hash_inputs: read ${#sums[@]} of ${#files[@]} files"
  for item in "${items[@]}"; do
    case "$item" in
      "literal "*) printf '%s\n' "$item" ;;
      *) printf '%s %s\n' "$item" "${sums[i]}"; i=$((i + 1)) ;;
    esac
  done | sha256sum | cut -c1-16
}

# lock_builds NAME: takes the exclusive lock of one cache entry,
# $E2E_CACHE_DIR/locks/NAME.lock, for the rest of the script (the shell's
# file descriptor 9). Two checkouts, or two runs, that build the same entry
# at once take turns: the second then finds the first's result cached,
# never half of it.
lock_builds() {
  mkdir -p "$E2E_CACHE_DIR/locks"
  exec 9>"$E2E_CACHE_DIR/locks/$1.lock"
  if ! flock -n 9; then
    log "$1: waiting for another build of it to finish ($E2E_CACHE_DIR/locks/$1.lock)"
    flock 9
  fi
}

image_exists() { docker image inspect "$1" >/dev/null 2>&1; }
