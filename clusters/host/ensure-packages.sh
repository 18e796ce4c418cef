#!/usr/bin/env bash
# ensure-packages.sh CMD=PACKAGE[=VERSION]...: makes sure each command is
# on PATH (and its package at VERSION when one is given), installing the
# Debian package (apt-get) when missing or another version, running as root
# on Debian/Ubuntu; anywhere else, says what to install and fails.
set -euo pipefail
missing=()
for pair in "$@"; do
  cmd=${pair%%=*} pkg=${pair#*=}
  name=${pkg%%=*}
  if ! command -v "$cmd" >/dev/null 2>&1 && ! [ -x "/usr/sbin/$cmd" ]; then
    missing+=("$pkg")
  elif [ "$name" != "$pkg" ]; then
    # A pinned version: the installed one must be it (a security update
    # of the host's apt sources would otherwise move it).
    have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)
    [ "$have" = "${pkg#*=}" ] || missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-packages: missing ${missing[*]}: install them with your package manager (Debian/Ubuntu: apt-get install --allow-downgrades ${missing[*]})" >&2
  exit 1
fi
echo "ensure-packages: installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt_install() { apt-get install -y -qq --allow-downgrades "${missing[@]}" >/dev/null; }
apt_install 2>/dev/null || { apt-get update -qq >/dev/null && apt_install; } ||
  { echo "ensure-packages: apt-get could not install ${missing[*]}: is that version still in the machine's apt sources?" >&2; exit 1; }
