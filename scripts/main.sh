#!/usr/bin/env bash
# The main job: install, generate code from spec/, build our extension, launch it in a real VS Code on a
# fresh fixture workspace, run the whole conformance suite against it, print and write the report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run codegen
npm run build:extension
mkdir -p reports
npx tsx conformance/cli.ts run --launch \
  --expected-failures conformance/expected-failures.json \
  --reporter console \
  --reporter junit:reports/conformance.xml \
  --reporter json:reports/conformance.json \
  --reporter markdown:reports/conformance.md \
  --reporter html:reports/conformance.html
echo "reports: $(ls reports/conformance.* | tr '\n' ' ')"
