#!/usr/bin/env bash
# Installs the live VS Code host this project tests against: Debian's chromium + ripgrep (+ libkrb5-dev
# for code-server's native build) and code-server from npm into a cache folder (never node_modules).
# Idempotent: every step is skipped when already done. Env: IDEA_KIT_CACHE (default ~/.cache/idea-kit).
set -euo pipefail
CS_VERSION=${CS_VERSION:-4.100.3}   # VS Code 1.100.3; runs on the system Node 20
CACHE=${IDEA_KIT_CACHE:-$HOME/.cache/idea-kit}
CS_DIR=$CACHE/code-server-$CS_VERSION
log() { echo "[install-host $(date +%T)] $*" >&2; }

if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || [ ! -e /usr/include/krb5.h ] || ! command -v git >/dev/null; then
  log "apt: chromium ripgrep libkrb5-dev git"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium ripgrep libkrb5-dev git g++ make python3 >/dev/null
fi

if [ ! -x "$CS_DIR/node_modules/.bin/code-server" ] || [ ! -e "$CS_DIR/.installed" ]; then
  log "code-server@$CS_VERSION into $CS_DIR (about 1 min; native modules build from source)"
  mkdir -p "$CS_DIR/tmp"
  # @vscode/ripgrep's postinstall downloads from GitHub; seed its cache with Debian's rg instead.
  rgc="$CS_DIR/tmp/vscode-ripgrep-cache-1.15.11"; mkdir -p "$rgc" "$CS_DIR/rgstage"; cp "$(command -v rg)" "$CS_DIR/rgstage/rg"
  tar czf "$rgc/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$CS_DIR/rgstage" rg
  [ -f "$CS_DIR/package.json" ] || echo '{"name":"idea-kit-host","private":true}' > "$CS_DIR/package.json"
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp`; unsafe_perm: code-server refuses root without it.
  (cd "$CS_DIR" && TMPDIR="$CS_DIR/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
     npm install "code-server@$CS_VERSION" --no-save --foreground-scripts > "$CS_DIR/install.log" 2>&1) \
    || { tail -40 "$CS_DIR/install.log" >&2; exit 1; }
  touch "$CS_DIR/.installed"
fi
log "ready: $CS_DIR/node_modules/.bin/code-server, $(command -v chromium)"
