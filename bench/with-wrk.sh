#!/usr/bin/env bash
# Runs a wrk benchmark (bench/*-wrk.ts), installing wrk first when it is missing and we are root.
# Usage: bash bench/with-wrk.sh bench/share-wrk.ts   (npm run bench:share / bench:project). Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  else
    echo "wrk is missing: sudo apt-get install -y wrk" >&2
    exit 1
  fi
fi
exec node node_modules/tsx/dist/cli.mjs "$1"
