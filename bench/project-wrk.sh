#!/usr/bin/env bash
# Requests/s of GET /project/{id} with 4 and with 40 charts on the built server, measured with wrk.
# Usage: bash bench/project-wrk.sh   (THREADS=2 CONNECTIONS=50 DURATION=10s by default). Not part of CI.
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
exec node node_modules/tsx/dist/cli.mjs bench/project-wrk.ts
