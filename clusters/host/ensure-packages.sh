#!/usr/bin/env bash
# ensure-packages.sh CMD=PACKAGE...: makes sure each command is on PATH,
# installing its Debian package (apt-get) when missing and running as root
# on Debian/Ubuntu; anywhere else, says what to install and fails.
set -euo pipefail
missing=()
for pair in "$@"; do
  cmd=${pair%%=*} pkg=${pair#*=}
  command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-packages: missing ${missing[*]}: install them with your package manager (Debian/Ubuntu: apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "ensure-packages: installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null; }
