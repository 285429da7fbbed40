#!/usr/bin/env bash
# One command on a fresh machine: Node 24 from the npm registry when the machine's Node is older, pnpm if
# absent, the workspace, then everything started on the embedded database.
set -euo pipefail
cd "$(dirname "$0")/.."
# pnpm with the machine's own npm, before Node 24 goes on PATH: npm run by another Node installs "global"
# packages beside that Node (here .tools/node24), where no shell finds them; the machine's global prefix
# is where `pnpm test` will look afterwards.
if ! command -v pnpm >/dev/null 2>&1; then
  npm install -g pnpm@10.34.8
  export PATH="$PATH:$(npm prefix -g)/bin"
fi
# Prints the directory to put first on PATH, or nothing when the machine's Node is already 24 or newer.
node24=$(node scripts/node24.mjs)
if [ -n "$node24" ]; then export PATH="$node24:$PATH"; fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
pnpm install --frozen-lockfile
exec pnpm start
