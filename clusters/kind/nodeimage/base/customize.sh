#!/usr/bin/env bash
# customize.sh ROOTFS KIND_BASE_FILES: turns a debootstrapped Debian rootfs
# into a kind node base: kind's own base files and the unit changes of
# kind's base Dockerfile, plus what these hosts need (see the comments).
set -euo pipefail
R=$1 K=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../versions.env"

# kind's entrypoint, scripts and configuration, from the kind module.
install -m 0755 "$K"/usr/local/bin/* "$R/usr/local/bin/"
mkdir -p "$R/kind/bin" "$R/etc/containerd" "$R/etc/default" "$R/etc/sysctl.d" "$R/etc/systemd/system/kubelet.service.d"
install -m 0644 "$K/kind/README.txt" "$R/kind/"
install -m 0755 "$K"/kind/bin/* "$R/kind/bin/"
chmod 0755 "$R/kind" "$R/kind/bin"
install -m 0644 "$K/etc/crictl.yaml" "$R/etc/"
install -m 0644 "$K/etc/containerd/config.toml" "$R/etc/containerd/"
install -m 0644 "$K/etc/default/kubelet" "$R/etc/default/"
install -m 0644 "$K"/etc/sysctl.d/* "$R/etc/sysctl.d/"
install -m 0644 "$K"/etc/systemd/system/*.service "$K"/etc/systemd/system/*.slice "$R/etc/systemd/system/"
install -m 0644 "$K"/etc/systemd/system/kubelet.service.d/* "$R/etc/systemd/system/kubelet.service.d/"

# Debian's containerd lives in /usr/bin, kind's unit expects /usr/local/bin;
# Debian's CNI plugins live in /usr/lib/cni, containerd looks in /opt/cni/bin.
ln -sf /usr/bin/containerd "$R/usr/local/bin/containerd"
mkdir -p "$R/opt/cni/bin"
cp -a "$R/usr/lib/cni/." "$R/opt/cni/bin/"

# The same unit clean-up as kind's base Dockerfile.
find "$R/lib/systemd/system/sysinit.target.wants/" -name "systemd-tmpfiles-setup.service" -delete
rm -f "$R"/lib/systemd/system/multi-user.target.wants/* "$R"/etc/systemd/system/*.wants/* \
  "$R"/lib/systemd/system/local-fs.target.wants/* "$R"/lib/systemd/system/sockets.target.wants/*udev* \
  "$R"/lib/systemd/system/sockets.target.wants/*initctl* "$R"/lib/systemd/system/basic.target.wants/*
echo "ReadKMsg=no" >>"$R/etc/systemd/journald.conf"
ln -sf /usr/lib/systemd/systemd "$R/sbin/init"
mkdir -p "$R/etc/kubernetes/manifests"
chroot "$R" sh -c 'ctr oci spec | jq ".hooks.createContainer[.hooks.createContainer| length] |= . + {\"path\": \"/kind/bin/mount-product-files.sh\"}" | jq "del(.process.rlimits)" > /etc/containerd/cri-base.json'

# Hosts without CAP_SYS_RESOURCE: containerd must not try to lower
# oom_score_adj below its own. Harmless elsewhere.
sed -i 's/restrict_oom_score_adj = false/restrict_oom_score_adj = true/' "$R/etc/containerd/config.toml"
grep -q 'restrict_oom_score_adj = true' "$R/etc/containerd/config.toml" || { echo "customize: kind's containerd config has no restrict_oom_score_adj" >&2; exit 1; }
install -m 0755 "$here/files/cgroup-rw-entrypoint" "$R/usr/local/bin/"

# One-node CNI (kindnetd needs a registry image): Debian's bridge plugins.
mkdir -p "$R/etc/cni/net.d"
install -m 0644 "$here/files/10-bridge.conflist" "$R/etc/cni/net.d/"

# The seal, in place before containerd and kubelet start.
install -m 0755 "$here/files/egress-guard" "$R/usr/local/bin/"
install -m 0644 "$here/files/egress-guard.service" "$R/etc/systemd/system/"
printf 'POD_SUBNET=%s\nSERVICE_SUBNET=%s\n' "$POD_SUBNET" "$SERVICE_SUBNET" >"$R/etc/egress-guard.env"

chroot "$R" systemctl enable kubelet.service containerd.service undo-mount-hacks.service egress-guard.service >/dev/null
chroot "$R" systemctl mask systemd-binfmt.service >/dev/null

# Trim, and let systemd make a machine id at boot.
rm -rf "$R"/var/cache/apt/archives/*.deb "$R"/var/lib/apt/lists/* "$R/usr/share/doc" "$R/usr/share/man" "$R/usr/share/locale"
: >"$R/etc/machine-id"
