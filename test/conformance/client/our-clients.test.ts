// Our three clients judged by the client suite (issue 42), every scenario: the generated TypeScript client
// (adapters/generated-client.ts), the `idea` CLI through `idea call` (adapters/idea-cli.mjs) and idea-mcp
// through the official MCP SDK client (adapters/idea-mcp.mjs), each built into a folder of this test's
// own (other tests rebuild cli/dist and mcp/dist meanwhile). Their baseline of expected failures is
// conformance/client/expected-failures.json: none. The JSON reports and the matrix of the three go to
// reports/client-*.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientSuite } from '../../../conformance/client/run';
import { SCENARIOS } from '../../../conformance/client/scenarios';
import { readExpectedFailures } from '../../../conformance/lib/expected-failures';
import { buildMatrix } from '../../../conformance/lib/matrix';
import { writeMatrix } from '../../../conformance/matrix-cli';
import { JsonReporter, summaryToJson } from '../../../conformance/reporters/json';
import type { RunSummary } from '../../../conformance/reporters/types';
import { bundleOptions, esbuildOptions, ROOT, TARGETS } from '../../../scripts/build';

const tmp = mkdtempSync(join(tmpdir(), 'our-clients-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const out = (f: string) => join(tmp, f);
const node = (...args: string[]) => [process.execPath, ...args].map((a) => `"${a}"`).join(' ');
const adapter = (f: string) => join(import.meta.dirname, 'adapters', f);
/** A test-only bundle: one file loads faster than a tree of modules, 15 times over. */
const bundle = (entry: string, outfile: string) =>
  build({
    ...bundleOptions({ entry, outfile: 'unused', format: 'esm' }),
    outfile,
    sourcemap: false,
    logLevel: 'error',
  });

const CLIENTS = {
  'generated TypeScript client': () => node(out('generated-client.mjs')),
  'idea CLI (idea call)': () => node(adapter('idea-cli.mjs'), out('idea.cjs')),
  'idea-mcp (MCP SDK client)': () => node(out('idea-mcp-adapter.mjs'), out('idea-mcp.mjs')),
} as const;
type Name = keyof typeof CLIENTS;

const runs = new Map<Name, RunSummary>();
let buildMs = 0;
let suiteMs = 0;

beforeAll(async () => {
  const t0 = performance.now();
  await Promise.all([
    build({ ...(await esbuildOptions(TARGETS.cli.bundles[0]!)), outfile: out('idea.cjs') }),
    build({ ...(await esbuildOptions(TARGETS.mcp.bundles[0]!)), outfile: out('idea-mcp.mjs') }),
    bundle('test/conformance/client/adapters/generated-client.ts', out('generated-client.mjs')),
    bundle('test/conformance/client/adapters/idea-mcp.mjs', out('idea-mcp-adapter.mjs')),
  ]);
  const t1 = performance.now();
  buildMs = t1 - t0;
  const expectedFailures = readExpectedFailures(join(ROOT, 'conformance/client/expected-failures.json'));
  const slug = (n: string) => n.split(' ')[0]!.toLowerCase();
  await Promise.all(
    (Object.keys(CLIENTS) as Name[]).map(async (name) => {
      const s = await runClientSuite({
        command: CLIENTS[name](),
        scenarios: SCENARIOS,
        expectedFailures,
        allIds: new Set(SCENARIOS.map((sc) => sc.id)),
        implementation: { name },
        reporters: [new JsonReporter(join(ROOT, `reports/client-conformance-${slug(name)}.json`))],
      });
      runs.set(name, s);
    }),
  );
  suiteMs = performance.now() - t1;
  writeMatrix(
    buildMatrix(
      [...runs].map(([name, s]) => ({
        file: `reports/client-conformance-${slug(name)}.json`,
        name,
        report: summaryToJson(s),
      })),
    ),
    { markdown: join(ROOT, 'reports/client-matrix.md'), html: join(ROOT, 'reports/client-matrix.html') },
  );
  process.stderr.write(
    `client suite: built in ${(buildMs / 1000).toFixed(1)} s; three clients × ${SCENARIOS.length} scenarios in ${(suiteMs / 1000).toFixed(1)} s (${[...runs].map(([n, s]) => `${n} ${(s.durationMs / 1000).toFixed(1)} s`).join(', ')})\n`,
  );
}, 120_000);

describe('our clients under the client suite', () => {
  it.each(Object.keys(CLIENTS) as Name[])('%s passes every scenario', (name) => {
    const s = runs.get(name)!;
    const findings = s.results
      .filter((r) => r.verdict !== 'pass')
      .map(
        (r) =>
          `${r.id}: ${r.checks
            .filter((k) => !k.ok)
            .map((k) => `${k.name}\n${k.detail ?? ''}`)
            .join('\n')}`,
      );
    expect(findings).toEqual([]);
    expect([s.ok, s.results.length, s.stale]).toEqual([true, SCENARIOS.length, []]);
  });
});
