#!/bin/sh
# Installs the packed gateway (npm pack's tarball) with its production dependencies only into a folder,
# as the container's production stage gets it: the same steps run in the Containerfile's build stage and
# in container/smoke-outside-container.sh. No install script runs but the one the policy in the folder's
# package.json allows (a dependency's own allowScripts does not apply): better-sqlite3's, which compiles
# its SQLite addon, run by `npm rebuild` after an install with scripts off (sharp's, which only checks for
# the prebuilt binary npm installs beside it, is denied as in the project). (From a local tarball npm would
# also run the package's own `prepare`, which builds dist/ in a clone; the tarball has dist/ built.)
#   container/install-production.sh <tarball> <folder>
set -eu
tarball=$(realpath "$1")
mkdir -p "$2"
cd "$2"
cat > package.json <<JSON
{
  "private": true,
  "dependencies": { "unified-model-api": "file:$tarball" },
  "allowScripts": { "better-sqlite3": true, "sharp": false }
}
JSON
npm install --omit=dev --no-fund --no-audit --ignore-scripts --install-links
npm rebuild better-sqlite3 --strict-allow-scripts
# The tarball's path is of the build only; the lockfile it went into is not needed at run time.
rm -f package-lock.json
