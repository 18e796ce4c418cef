#!/usr/bin/env bash
# debian-mirror.sh: prints the Debian mirror every debootstrap of the
# project uses. DEBIAN_MIRROR from the environment wins; otherwise the
# machine's own apt sources decide (deb822 files in sources.list.d, then
# the one-line sources.list), so a lab whose apt points at its own mirror
# is followed without a setting. Security and updates suites are skipped:
# debootstrap needs the main suite.
set -euo pipefail
if [ -n "${DEBIAN_MIRROR:-}" ]; then
  echo "$DEBIAN_MIRROR"
  exit 0
fi
root=${APT_ROOT:-}
pick() { # reads "URI SUITE..." lines, prints the first main-suite URI
  local uri suites s
  while read -r uri suites; do
    case "$uri" in http://*|https://*|file:/*) ;; *) continue ;; esac
    for s in $suites; do
      case "$s" in *-security|*-updates|*-backports|*/updates) ;; *) echo "${uri%/}"; return 0 ;; esac
    done
  done
  return 1
}
{
  for f in "$root"/etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822: one stanza per blank-line-separated block; only Types: deb.
    awk 'BEGIN{RS=""; FS="\n"} {
      types=""; uris=""; suites=""; enabled="yes"
      for (i=1;i<=NF;i++) {
        split($i, kv, ":[ \t]*"); key=tolower(kv[1]); val=substr($i, length(kv[1])+2); sub(/^[ \t]+/, "", val)
        if (key=="types") types=val; else if (key=="uris") uris=val; else if (key=="suites") suites=val; else if (key=="enabled") enabled=tolower(val)
      }
      if (enabled!="no" && types ~ /(^|[ \t])deb([ \t]|$)/) { n=split(uris, u, /[ \t]+/); for (j=1;j<=n;j++) print u[j], suites }
    }' "$f"
  done
  for f in "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # one-line form: deb [options] URI SUITE COMPONENTS...
    sed -n 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\)[[:space:]]\+\([^[:space:]]\+\).*/\2 \3/p' "$f"
  done
} | pick && exit 0
echo "error: no Debian mirror found in ${root}/etc/apt/sources.list.d/*.sources or ${root}/etc/apt/sources.list; set DEBIAN_MIRROR to the mirror your apt uses (DEBIAN_MIRROR=http://<your mirror>/debian make e2e)" >&2
exit 1
