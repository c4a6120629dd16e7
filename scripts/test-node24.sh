#!/usr/bin/env bash
# Runs the test suite on Node 24 LTS beside the default Node, in this checkout: Node 24 comes from
# the npm package `node@24` (the official binary); no native module needs rebuilding, because on
# Node 22+ the store loads better-sqlite3 13 (`better-sqlite3-napi`, N-API prebuilds) instead of
# the Node 20 build of better-sqlite3 12 (see src/store/index.ts). The last line is the suite's
# "N passed, N failed[, N skipped]".
# Usage: bash scripts/test-node24.sh [vitest args]
set -euo pipefail
cd "$(dirname "$0")/.."
runtime="${NODE24_DIR:-${TMPDIR:-/tmp}/plotline-node24}"
if [ ! -x "$runtime/node_modules/node/bin/node" ]; then
  mkdir -p "$runtime"
  cat > "$runtime/package.json" <<'JSON'
{ "name": "plotline-node24-runtime", "private": true, "allowScripts": { "node": true } }
JSON
  (cd "$runtime" && npm install --no-audit --no-fund --loglevel=error node@24 >/dev/null)
fi
bin="$runtime/node_modules/node/bin"
[ -x "$bin/node" ] || { echo "node@24 did not install a binary" >&2; exit 1; }
echo "Node 24 run: $("$bin/node" --version) from the npm package node@24" >&2
PATH="$bin:$PATH" node scripts/test.mjs "$@"
