#!/usr/bin/env bash
# The test command: drift checks, typecheck, lint (format, import boundaries, commit messages), unit and
# system tests, live tests in a real VS Code, and the conformance suite against our extension (the CI gate:
# test/conformance/conformance.live.test.ts, which writes reports/conformance.{xml,json}). Installs what it
# needs first. IDEA_TEST_FULL=1 (`npm run test:full`) runs the soak-sized loops at their full size.
#
# Only the live tests need the VS Code builds and the MCP clients (a few minutes to install on a fresh
# machine, mostly compiling code-server's native modules): they are installed in the background while the
# checks, unit and system tests run (those wait on processes more than they compute), and waited for
# before the live tests.
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)
phase() { echo "[test.sh +$(($(date +%s) - T0)) s] $*" >&2; }

bash scripts/setup.sh --system-only
mkdir -p reports
bash scripts/setup.sh --hosts-only > reports/setup-hosts.log 2>&1 &
hosts=$!
trap 'kill "$hosts" 2>/dev/null || true' EXIT
phase "installing the VS Code builds in the background (reports/setup-hosts.log)"

npm run codegen -- --check --full
npx tsx conformance/manifest.ts --check
npx tsx spec-tools/cli.ts check-frozen
npx tsx spec-tools/cli.ts changelog --check
npm run typecheck
npm run lint
npm run build:extension
npm run build:cli
npm run build:mcp
phase "checks passed"
npx vitest run --project unit --project system --project timed --reporter=default --reporter=json --outputFile.json=reports/vitest-unit.json
phase "unit and system tests passed"
if ! wait "$hosts"; then
  cat reports/setup-hosts.log >&2
  echo "test.sh: installing the VS Code builds failed (log above, and in reports/setup-hosts.log)" >&2
  exit 1
fi
trap - EXIT
phase "VS Code builds ready"
npx vitest run --project live --project live-serial --reporter=default --reporter=json --outputFile.json=reports/vitest-live.json
phase "live tests passed"
node scripts/summary.mjs
