#!/usr/bin/env bash
# Exits 0 when the Docker engine can start --privileged containers (kind
# needs them), 1 when it cannot: on some VMs the capability bounding set
# lacks CAP_SYS_RESOURCE and runc fails with "unable to apply caps".
# The probe runs an empty image's missing entrypoint: a normal host fails
# later, at exec, with "no such file".
set -uo pipefail
probe=router-conformance/probe:empty
docker image inspect "$probe" >/dev/null 2>&1 || tar -c -T /dev/null | docker import - "$probe" >/dev/null
out=$(docker run --rm --privileged --entrypoint /router-conformance-probe "$probe" 2>&1)
case "$out" in
  *"apply caps"*) exit 1 ;;
  *"no such file"*) exit 0 ;;
  *) printf 'privileged-ok: unexpected answer from docker run --privileged:\n%s\n' "$out" >&2; exit 2 ;;
esac
