#!/usr/bin/env bash
# One command on a fresh machine: install pnpm if absent, install the workspace, start everything on the
# embedded database.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v pnpm >/dev/null 2>&1; then
  npm install -g pnpm@10.34.8
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
pnpm install --frozen-lockfile
exec pnpm start
