#!/usr/bin/env bash
# Installs the live VS Code host this project tests against (see livehost/README.md):
#   - Debian packages: chromium (headless workbench), ripgrep, libkrb5-dev + g++/make/python3 (code-server's
#     native modules build from source here), git (the built-in git extension);
#   - code-server from npm into a cache folder (never the project's node_modules).
# Idempotent: each step is skipped when already done; safe to run concurrently (a lock serialises runs).
# Env: IDEA_KIT_CACHE (default ~/.cache/idea-kit), CS_VERSION (default 4.100.3 = VS Code 1.100.3, Node 20;
#      livehost/ looks for 4.100.3 unless IDEA_CODE_SERVER points elsewhere), IDEA_SKIP_APT=1 (skip apt).
set -euo pipefail
CS_VERSION=${CS_VERSION:-4.100.3}
CACHE=${IDEA_KIT_CACHE:-$HOME/.cache/idea-kit}
CS_DIR=$CACHE/code-server-$CS_VERSION
CS_BIN=$CS_DIR/node_modules/.bin/code-server
APT_PACKAGES=(chromium ripgrep libkrb5-dev git g++ make python3)

T0=$(date +%s%3N)
ms_since() { echo $(( $(date +%s%3N) - $1 )); }
log() { echo "[install-host $(date +%T)] $*" >&2; }
die() { echo "[install-host] ERROR: $*" >&2; exit 1; }

command -v node >/dev/null || die "node is not on PATH (code-server $CS_VERSION needs Node 20)"
command -v npm >/dev/null || die "npm is not on PATH"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
if [ "$CS_VERSION" = 4.100.3 ] && [ "$NODE_MAJOR" != 20 ]; then
  die "code-server 4.100.3 requires Node 20 (its postinstall refuses others); found $(node --version)"
fi

mkdir -p "$CACHE"
# Two concurrent installs into one folder would corrupt it: wait for the other one instead.
exec 9>"$CACHE/.install-host.lock"
if ! flock -n 9; then
  log "another install is running (lock $CACHE/.install-host.lock); waiting for it"
  flock 9
fi

# --- 1. Debian packages --------------------------------------------------------------------------------
missing_system() {
  ! command -v chromium >/dev/null || ! command -v rg >/dev/null || [ ! -e /usr/include/krb5.h ] \
    || ! command -v git >/dev/null || ! command -v g++ >/dev/null || ! command -v make >/dev/null \
    || ! command -v python3 >/dev/null
}
if missing_system; then
  [ "${IDEA_SKIP_APT:-0}" = 1 ] && die "system packages missing and IDEA_SKIP_APT=1: install ${APT_PACKAGES[*]}"
  command -v apt-get >/dev/null || die "apt-get not found: install ${APT_PACKAGES[*]} with your package manager"
  SUDO=
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to apt-get install ${APT_PACKAGES[*]}"
    SUDO=sudo
  fi
  t=$(date +%s%3N)
  log "apt: ${APT_PACKAGES[*]} (about 40 s)"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || die "apt-get update failed"
  $SUDO apt-get install -y -qq "${APT_PACKAGES[@]}" >/dev/null || die "apt-get install ${APT_PACKAGES[*]} failed"
  missing_system && die "apt finished but a tool is still missing (chromium, rg, git, g++, make, python3 or krb5.h)"
  log "apt done in $(ms_since "$t") ms"
else
  log "system packages present: $(command -v chromium), $(command -v rg), git, g++, make, python3, krb5.h"
fi

# --- 2. code-server into the cache ---------------------------------------------------------------------
if [ -x "$CS_BIN" ] && [ -e "$CS_DIR/.installed" ]; then
  log "code-server $CS_VERSION already installed in $CS_DIR"
else
  t=$(date +%s%3N)
  log "code-server@$CS_VERSION into $CS_DIR (about 1 min; native modules build from source)"
  rm -f "$CS_DIR/.installed"
  mkdir -p "$CS_DIR/tmp" "$CS_DIR/rgstage"
  # @vscode/ripgrep's postinstall downloads from GitHub (unreachable here); seed its download cache with
  # Debian's rg. 1.15.11 / v13.0.0-10 are the versions code-server 4.100.3's shrinkwrap pins; harmless otherwise.
  rgc="$CS_DIR/tmp/vscode-ripgrep-cache-1.15.11"; mkdir -p "$rgc"
  cp "$(command -v rg)" "$CS_DIR/rgstage/rg"
  tar czf "$rgc/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$CS_DIR/rgstage" rg
  [ -f "$CS_DIR/package.json" ] || echo '{"name":"idea-kit-host","private":true}' > "$CS_DIR/package.json"
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp` (a global `yes=false` would cancel it);
  # npm_config_unsafe_perm: code-server's postinstall refuses to run as root without it.
  if ! (cd "$CS_DIR" && TMPDIR="$CS_DIR/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
        npm install "code-server@$CS_VERSION" --no-save --no-audit --no-fund --foreground-scripts \
        > "$CS_DIR/install.log" 2>&1); then
    tail -40 "$CS_DIR/install.log" >&2
    die "npm install code-server@$CS_VERSION failed after $(ms_since "$t") ms (full log: $CS_DIR/install.log)"
  fi
  [ -x "$CS_BIN" ] || die "npm install succeeded but $CS_BIN is missing (see $CS_DIR/install.log)"
  log "code-server installed in $(ms_since "$t") ms ($(du -sh "$CS_DIR" | cut -f1))"
fi

# --- 3. Smoke check: the binary runs (HOME/XDG in a scratch folder: --version writes config files) -----
t=$(date +%s%3N)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo 'auth: none' > "$scratch/config.yaml"   # else it writes a default config and says so on stdout
if ! version=$(HOME=$scratch XDG_CONFIG_HOME=$scratch/c XDG_DATA_HOME=$scratch/d \
      "$CS_BIN" --config "$scratch/config.yaml" --user-data-dir "$scratch/udd" --version 2>"$scratch/err" | tail -1); then
  cat "$scratch/err" >&2
  rm -f "$CS_DIR/.installed"
  die "$CS_BIN --version failed; delete $CS_DIR and run this script again"
fi
case "$version" in
  "$CS_VERSION "*) ;;
  *) rm -f "$CS_DIR/.installed"; die "unexpected code-server version output: $version" ;;
esac
touch "$CS_DIR/.installed"
chromium_version=$(chromium --version 2>/dev/null | head -1 || true)   # Debian's wrapper may print a harmless '[:' warning
log "check ok in $(ms_since "$t") ms: code-server ${version%% *} (VS Code ${version##* }), ${chromium_version:-chromium}"
log "ready in $(ms_since "$T0") ms: $CS_BIN"
