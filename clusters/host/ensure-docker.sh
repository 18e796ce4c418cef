#!/usr/bin/env bash
# Makes sure a Docker engine answers. On a root Debian/Ubuntu host without
# one, installs Debian's docker.io and starts dockerd (its log goes to
# $DOCKERD_LOG); anywhere else, says what to install and fails.
set -euo pipefail

log=${DOCKERD_LOG:-/var/log/dockerd-e2e.log}

if why=$(docker info 2>&1 >/dev/null); then
  exit 0
fi

say() { printf 'ensure-docker: %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  # What to do depends on why: no CLI, an engine this user may not use
  # (the common laptop case), or none running.
  if ! command -v docker >/dev/null 2>&1; then
    say "no docker command: install Docker (https://docs.docker.com/engine/install/), or run as root on Debian/Ubuntu and this script installs docker.io for you."
  elif [[ $why == *"permission denied"* ]]; then
    say "a Docker engine runs, but $(id -un) may not use its socket: add yourself to the docker group (sudo usermod -aG docker $(id -un)), log in again, and check 'docker info'. Docker said: ${why%%$'\n'*}"
  else
    say "no Docker engine answers 'docker info': start it (sudo systemctl start docker), or run as root on Debian/Ubuntu and this script starts one for you. Docker said: ${why%%$'\n'*}"
  fi
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1; then
  say "installing Debian's docker.io (apt-get) ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq docker.io >/dev/null
fi

if ! pgrep -x dockerd >/dev/null 2>&1; then
  say "starting dockerd (log: $log)"
  # setsid: dockerd must outlive the make/CI process group that started it.
  # It must not keep any other descriptor of its starter either (a lock a
  # caller holds with flock, a CI runner's pipe it waits to close): the
  # subshell closes every one above stderr before it becomes dockerd.
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
    done
    exec setsid nohup dockerd >"$log" 2>&1 </dev/null
  ) &
fi

for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    say "Docker engine is up."
    exit 0
  fi
  sleep 1
done
say "dockerd did not answer within 60 s; see $log"
exit 1
