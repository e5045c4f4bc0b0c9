// Prints one closing line over everything scripts/test.sh ran (vitest projects + conformance cases), so
// a CI log reader sees the totals: "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
for (const file of ['reports/vitest-unit.json', 'reports/vitest-live.json']) {
  if (!existsSync(file)) {
    console.error(`summary: ${file} missing`);
    process.exit(1);
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
}
const conf = 'reports/conformance.json';
if (!existsSync(conf)) {
  console.error(`summary: ${conf} missing`);
  process.exit(1);
}
const c = JSON.parse(readFileSync(conf, 'utf8')).counts;
passed += c.pass + c.warn;
failed += c.fail + c.unimplemented;
skipped += c.skip;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
