#!/bin/sh
# The container's production stage without a container runtime (for where podman cannot run: README,
# Container): lays the packed gateway out as the Containerfile does, over the production dependencies that
# this checkout's package-lock.json pins (container/install-production-dependencies.sh), then runs it as an unprivileged user with the application read-only and
# only a data folder writable, and smoke-tests it: a key from the keys subcommand, the requests of
# container/smoke-requests.mjs (/healthz, /readyz, chat completions through the openai SDK), and a SIGTERM
# that exits 0. Needs root (for the read-only bind mount and the user switch); takes a few minutes, most of
# it compiling better-sqlite3.
#   container/smoke-outside-container.sh [tarball]     (default: npm pack of this checkout)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/gateway-production-XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then tarball=$(realpath "$1"); else
  (cd "$repo" && npm pack --pack-destination "$work" >/dev/null)
  tarball=$(ls "$work"/unified-model-api-*.tgz)
fi
mkdir "$work/app"
cp "$repo/package.json" "$repo/package-lock.json" "$work/app/"
"$repo/container/install-production-dependencies.sh" "$work/app"
tar -xzf "$tarball" -C "$work/app" --strip-components=1
mkdir "$work/data"
chown 65534:65534 "$work/data"
chmod 755 "$work"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
bin="$work/app/bin/unified-model-api.mjs"
# As the container: the application read-only (a bind mount in a private mount namespace), the user nobody.
# It execs, so that in a background subshell `$!` is the gateway itself; call it in a subshell.
as_gateway() {
  exec unshare --mount --propagation private sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec setpriv --reuid 65534 --regid 65534 --clear-groups "$@"' \
    sh "$work/app" env NODE_ENV=production GATEWAY_DATA_DIR="$work/data" HOST=127.0.0.1 PORT="$port" "$@"
}
(as_gateway node "$bin") &
gateway=$!
origin="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fs "$origin/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
key=$(as_gateway node "$bin" keys create --name smoke --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')
node "$repo/container/smoke-requests.mjs" "$origin" "$key"
if (as_gateway sh -c "touch '$work/app/written'") 2>/dev/null; then echo "the application folder is writable" >&2; exit 1; fi
kill -TERM "$gateway"
wait "$gateway" && echo "SIGTERM: exited 0"
