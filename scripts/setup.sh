#!/usr/bin/env bash
# Everything a fresh machine needs: npm packages, then the live VS Code host (Debian chromium, ripgrep,
# code-server in a cache folder), then the MCP clients the MCP live test drives (Node 22, the MCP
# conformance suite, the Inspector CLI, in a cache folder). Idempotent; safe to run before every job.
#   bash scripts/setup.sh                 everything
#   bash scripts/setup.sh --system-only   npm and Debian packages: what everything but the live tests needs
#   bash scripts/setup.sh --hosts-only    the VS Code builds and the MCP clients (after --system-only)
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case "$part" in all|--system-only|--hosts-only) ;; *) echo "usage: setup.sh [--system-only|--hosts-only]" >&2; exit 2 ;; esac
if [ "$part" != --hosts-only ]; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "[setup] npm ci" >&2
    npm ci --no-fund --no-audit
  fi
fi
case "$part" in
  --system-only) IDEA_INSTALL_ONLY=system bash scripts/install-host.sh ;;
  --hosts-only) IDEA_INSTALL_ONLY=hosts bash scripts/install-host.sh && bash scripts/install-mcp-clients.sh ;;
  *) bash scripts/install-host.sh && bash scripts/install-mcp-clients.sh ;;
esac
