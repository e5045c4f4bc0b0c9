// conformance/docs/clients.md, the page for implementers of clients, is kept true: its Python adapter (the
// standard library only) passes every client scenario, its table lists the scenarios as the code has
// them, and the contract it states names the variables the runner sets.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTRACT_ENV, NO_ANSWER } from '../../conformance/client/contract';
import { runClientSuite } from '../../conformance/client/run';
import { SCENARIOS } from '../../conformance/client/scenarios';
import { ROOT } from '../../scripts/build';

const PAGE = readFileSync(join(ROOT, 'conformance/docs/clients.md'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'client-adapter-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The one ```python block of the page. */
function pythonBlock(): string {
  const blocks = [...PAGE.matchAll(/^```python\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

describe('conformance/docs/clients.md', () => {
  it('its Python adapter passes every client scenario', async () => {
    const file = join(tmp, 'idea_client.py');
    writeFileSync(file, pythonBlock());
    const s = await runClientSuite({ command: `python3 "${file}"`, scenarios: SCENARIOS, concurrency: 3 });
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
    expect(s.results).toHaveLength(SCENARIOS.length);
  }, 60_000);

  it('lists the scenarios as the code has them, and the contract with the names the runner uses', () => {
    const rows = [...PAGE.matchAll(/^\| `([a-z-]+\/[a-z-]+)` +\| ([A-Z]\d+) +\|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(SCENARIOS.map((s) => [s.id, s.clause]));
    for (const name of [...Object.values(CONTRACT_ENV), NO_ANSWER]) expect(PAGE).toContain(`\`${name}\``);
  });
});
