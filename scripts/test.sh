#!/usr/bin/env bash
# The test command: drift check, typecheck, unit tests, then the live tests in a real VS Code.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run codegen -- --check
npm run typecheck
npm run build:extension
npx vitest run --project unit
npx vitest run --project live --no-file-parallelism
