#!/usr/bin/env bash
# Everything a fresh machine needs: npm packages, then the live VS Code host (Debian chromium, ripgrep,
# code-server in a cache folder), then the MCP clients the MCP live test drives (Node 22, the MCP
# conformance suite, the Inspector CLI, in a cache folder). Idempotent; safe to run before every job.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci" >&2
  npm ci --no-fund --no-audit
fi
bash scripts/install-host.sh
bash scripts/install-mcp-clients.sh
