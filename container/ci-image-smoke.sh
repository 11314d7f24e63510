#!/usr/bin/env bash
# CI's container test: builds the image with podman from the Containerfile on a base made from Debian
# packages and the npm registry (container/make-debian-base.sh, cached in ~/.cache), runs it as the README
# says (read-only root, a tmpfs /tmp, a data volume, its own user), and smoke-tests it: the user and what it
# may write, production dependencies only, the image's HEALTHCHECK, a key from the keys subcommand,
# container/smoke-requests.mjs (/healthz, /readyz, chat completions through the openai SDK), then SIGTERM
# (podman stop), which must drain and exit 0 within the grace.
# Removes the container, volume and image it made. Keeps, as caches named by their content: the base image
# (and its tarball in ~/.cache), and podman's layers of the build and dependencies stages, tagged
# localhost/unified-model-api-cache:<stage> so that the next run reuses them (the dependencies stage, with
# better-sqlite3 compiled, while package-lock.json is unchanged; the build stage's npm ci likewise).
# Needs root, podman, runc and debootstrap, and this checkout's node_modules (the openai SDK).
#   container/ci-image-smoke.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
node_version=20.20.2
run_id="ci-$(date +%s)-$$"
image="localhost/unified-model-api:$run_id"
container="unified-model-api-$run_id"
volume="unified-model-api-data-$run_id"
step() { echo "-- $(date -u +%H:%M:%S) $*"; }

# This machine (a Firecracker VM) needs two things podman's defaults do not give it:
# - runc, not crun: the cgroup hierarchy is hybrid (v1 controllers, plus hugetlb on the cgroup2 mount),
#   and crun 1.8 refuses that ("cgroups in hybrid mode not supported, drop all controllers from cgroupv2").
# - lower rlimits: podman asks for RLIMIT_NOFILE 1048576 and RLIMIT_NPROC 4194304, above the VM's hard
#   limits (20000, 96364), and root here lacks CAP_SYS_RESOURCE (absent from the bounding set) to raise
#   them ("error setting rlimit type 7: operation not permitted"). The open-file limit stays well above
#   1024 all the same: the build stage's `npm ci` over npm's cache mount ran out of 1024 files (EMFILE) the
#   first time the lockfile changed since the cache was made.
podman=(podman --runtime runc)
limits=(--ulimit nofile=16384:16384 --ulimit nproc=1000:1000)

cleanup() {
  "${podman[@]}" rm --force --time 0 "$container" >/dev/null 2>&1 || true
  podman volume rm --force "$volume" >/dev/null 2>&1 || true
  podman rmi --force "$image" >/dev/null 2>&1 || true
}
trap cleanup EXIT

step "base images (debootstrap, cached in ~/.cache/unified-model-api)"
"$repo/container/make-debian-base.sh" "$node_version"

step "podman build"
# --jobs 2: the build and dependencies stages run side by side. The layer cache is on (podman's default).
# --cpu-shares 15: the RUN steps (npm ci, better-sqlite3's compile) run in a cgroup of their own beside the
# host's processes, which by default weighs as much as one nice-0 process whatever the nice value of what
# runs in it; 15 is the weight of a nice-19 process (1024 is nice 0's), as CI runs this script (beside the tests).
build=(--format docker --layers --jobs 2 --cpu-shares 15 --network host
  --build-arg "BASE_IMAGE=localhost/debian-node:$node_version"
  # npm's cache from the host (it shadows the Containerfile's cache mount): what npm ci just filled.
  --volume "${npm_config_cache:-$HOME/.npm}:/root/.npm")
# Behind a TLS-intercepting proxy (this sandbox's), its CA for npm in the build stage, mounted, not copied.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  build+=(--volume "$NODE_EXTRA_CA_CERTS:/run/build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/build-ca.crt)
fi
"${podman[@]}" build "${limits[@]}" "${build[@]}" -f "$repo/Containerfile" -t "$image" "$repo"
# The stages' last layers tagged (both builds are answered from the layer cache at once): a tagged image's
# layers are not dangling, so the prune below leaves the next run's cache; it removes the older runs'
# layers that nothing names any more (the build stage's for other sources, the stages' for another lockfile).
for stage in build dependencies; do
  "${podman[@]}" build "${limits[@]}" "${build[@]}" --quiet --target "$stage" -f "$repo/Containerfile" \
    -t "localhost/unified-model-api-cache:$stage" "$repo" >/dev/null
done
podman image prune --force --filter "label=unified-model-api.base" >/dev/null
podman image inspect --format 'image: {{.Size}} bytes, user {{.Config.User}}, stop signal {{.Config.StopSignal}}' "$image"

step "podman run: read-only root, tmpfs /tmp, a data volume"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
podman volume create "$volume" >/dev/null
# The image's HEALTHCHECK is run once by hand below: podman schedules it with systemd timers, and this
# machine has no systemd (--health-interval disable keeps the check without the timer).
"${podman[@]}" run --detach --name "$container" "${limits[@]}" --read-only --tmpfs /tmp --health-interval disable \
  --volume "$volume:/data" --publish "127.0.0.1:$port:8080" "$image" >/dev/null
origin="http://127.0.0.1:$port"
ready=
for _ in $(seq 1 150); do
  if curl -fs "$origin/readyz" >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.2
done
[ -n "$ready" ] || { podman logs "$container" >&2; echo "the container never became ready" >&2; exit 1; }

"${podman[@]}" healthcheck run "$container" >/dev/null || { echo "the image's HEALTHCHECK fails" >&2; exit 1; }
echo "HEALTHCHECK: healthy"
in_container() { "${podman[@]}" exec "$container" "$@"; }
[ "$(in_container id -u)" = 10001 ] || { echo "the gateway does not run as uid 10001" >&2; exit 1; }
for path in / /app /usr/local; do
  if in_container sh -c "touch '$path/written'" 2>/dev/null; then echo "$path is writable in the container" >&2; exit 1; fi
done
in_container sh -c 'touch /data/written && touch /tmp/written'
echo "uid 10001; / and /app read-only; /data and /tmp writable"
# Production dependencies only: no dev dependency (the SDK, the build tools) and no telemetry package.
for package in openai typescript esbuild tsx @scarf/scarf; do
  if in_container test -e "/app/node_modules/$package"; then echo "/app has $package" >&2; exit 1; fi
done
echo "no dev dependency in /app"

key=$(in_container node /app/bin/unified-model-api.mjs keys create --name smoke --json \
  | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')
node "$repo/container/smoke-requests.mjs" "$origin" "$key"

step "SIGTERM (podman stop)"
started=$(date +%s)
"${podman[@]}" stop --time 30 "$container" >/dev/null
status=$(podman inspect --format '{{.State.ExitCode}}' "$container")
# The log read whole before grep: `grep -q` stops at the first match, and with pipefail podman logs' SIGPIPE
# would fail the check.
logs=$(podman logs "$container" 2>&1)
grep -q 'shutting down: draining' <<<"$logs" || { echo "$logs" >&2; echo "no drain on SIGTERM" >&2; exit 1; }
[ "$status" = 0 ] || { podman logs "$container" >&2; echo "exited $status on SIGTERM" >&2; exit 1; }
echo "drained and exited 0 in $(( $(date +%s) - started )) s"
