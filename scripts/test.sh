#!/usr/bin/env bash
# The test command: drift checks, typecheck, lint (format, import boundaries, commit messages), unit tests,
# live tests in a real VS Code, and the conformance suite against our extension (the CI gate:
# test/conformance/conformance.live.test.ts, which writes reports/conformance.{xml,json}). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p reports
npm run codegen -- --check --full
npx tsx conformance/manifest.ts --check
npx tsx spec-tools/cli.ts check-frozen
npx tsx spec-tools/cli.ts changelog --check
npm run typecheck
npm run lint
npm run build:extension
npm run build:cli
npm run build:mcp
npx vitest run --project unit --reporter=default --reporter=json --outputFile.json=reports/vitest-unit.json
npx vitest run --project system --reporter=default --reporter=json --outputFile.json=reports/vitest-system.json
npx vitest run --project live --no-file-parallelism --reporter=default --reporter=json --outputFile.json=reports/vitest-live.json
node scripts/summary.mjs
