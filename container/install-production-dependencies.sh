#!/bin/sh
# Installs the gateway's production dependencies, exactly as package-lock.json pins them, into
# <folder>/node_modules; the folder holds the project's package.json and package-lock.json (the unpacked
# package goes over it afterwards: npm pack's package.json is the same file). The Containerfile's
# dependencies stage runs it, and so does container/smoke-outside-container.sh. No install script runs but
# the one package.json's allowScripts allows: better-sqlite3's, which compiles its SQLite addon, run by
# `npm rebuild` after an install with scripts off (sharp's, which only checks for the prebuilt binary npm
# installs beside it, is denied as in the project; the package's own `prepare` would build dist/, which the
# package has built). --prefer-offline: whatever npm's cache holds is not downloaded again.
#   container/install-production-dependencies.sh <folder>
set -eu
cd "$1"
npm ci --omit=dev --prefer-offline --no-fund --no-audit --ignore-scripts
# JOBS: node-gyp's make runs SQLite's and the binding's compilers at once rather than one after the other.
JOBS=max npm rebuild better-sqlite3 --strict-allow-scripts
