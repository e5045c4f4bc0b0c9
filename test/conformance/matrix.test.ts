// The implementation matrix: JSON reports merged into cases × implementations by clause, as Markdown and
// as an HTML page checked in headless Chromium (rows, filters, hostile names).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_MD } from '../../conformance/lib/clauses';
import { buildMatrix, parseMatrixArg, rowDiffers } from '../../conformance/lib/matrix';
import { matrixCli } from '../../conformance/matrix-cli';
import { matrixToMarkdown } from '../../conformance/reporters/matrix';
import { launchChromium } from './html-browser';

const HOSTILE = `<img src=x onerror="window.__pwned=1">|**bold**|\n<script>window.__pwned=2</script>`;
const kase = (id: string, clause: string, verdict: string, extra: Record<string, unknown> = {}) => ({
  id,
  clause,
  description: `what ${id} checks`,
  verdict,
  ...extra,
});
const agreed = kase('protocol/connection-survives-errors', 'T1', 'pass');
const oldest = {
  tool: 'idea-conformance',
  ok: true,
  server: { version: '0.1.6' },
  implementation: { name: 'idea-vscode 0.1.6', build: 'VS Code 1.100.3 (code-server 4.100.3)' },
  cases: [
    kase('protocol/handshake-success', 'T3', 'pass'),
    kase('edit-find/no-match', 'T12', 'pass'),
    kase('security/oversize-frame', 'H3', 'pass'),
    kase('protocol/second-handshake', 'R9', 'pass'),
    agreed,
  ],
};
const newest = {
  ...oldest,
  implementation: { name: 'idea-vscode 0.1.6', build: 'VS Code 1.139.1 (code-server 4.139.1)' },
  cases: [
    ...oldest.cases.slice(0, 3),
    kase('protocol/second-handshake', 'R9', 'warn', { reason: 'step[1] failed' }),
    agreed,
  ],
};
// Another server, older, with no implementation recorded (a report from before the field) and a hostile case.
const other = {
  tool: 'idea-conformance',
  ok: false,
  server: { version: '0.1.5' },
  cases: [
    agreed,
    kase('protocol/handshake-success', 'T3', 'fail', { reason: HOSTILE }),
    kase('edit-find/no-match', 'T12', 'fail', { expectedFailure: true }),
    kase(`x/${HOSTILE}`, HOSTILE, 'error', { description: HOSTILE }),
  ],
};

let tmp: string;
let browser: Browser;
const files: Record<string, string> = {};
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-matrix-'));
  for (const [n, r] of Object.entries({ oldest, newest, other }))
    writeFileSync((files[n] = join(tmp, `conformance-${n}.json`)), JSON.stringify(r));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('implementation matrix', () => {
  it('merges reports into cases × implementations, grouped by clause in the clauses’ order', () => {
    const m = buildMatrix([
      { file: files.oldest!, report: oldest },
      { file: files.newest!, report: newest },
      { file: files.other!, report: other },
    ]);
    expect(m.columns.map((c) => c.name)).toEqual([
      'idea-vscode 0.1.6 — VS Code 1.100.3 (code-server 4.100.3)',
      'idea-vscode 0.1.6 — VS Code 1.139.1 (code-server 4.139.1)',
      'IDEA 0.1.5 server (conformance-other.json)',
    ]);
    expect(m.groups.map((g) => g.clause)).toEqual(['T1', 'T3', 'T12', 'R9', 'H3', `${HOSTILE.slice(0, 40)}…`]); // a clause id is short
    expect(m.groups[1]).toMatchObject({
      title: 'Handshake success',
      rows: [
        { id: 'protocol/handshake-success', cells: [{ verdict: 'pass' }, { verdict: 'pass' }, { verdict: 'fail' }] },
      ],
    });
    const r9 = m.groups.find((g) => g.clause === 'R9')!.rows[0]!;
    expect(r9.cells).toEqual([{ verdict: 'pass' }, { verdict: 'warn', reason: 'step[1] failed' }, undefined]);
    expect(rowDiffers(r9)).toBe(true);
    expect(rowDiffers(m.groups.find((g) => g.clause === 'H3')!.rows[0]!)).toBe(true); // missing in the third
    expect(rowDiffers(m.groups[0]!.rows[0]!)).toBe(false);
    expect(m.columns[2]!.counts).toMatchObject({ fail: 2, error: 1, pass: 1 });
  });

  it('names columns by name=path first, and tells apart two reports of one implementation', () => {
    expect(parseMatrixArg('theirs=reports/a.json', () => false)).toEqual({ name: 'theirs', file: 'reports/a.json' });
    expect(parseMatrixArg('reports/a=b.json', () => false)).toEqual({ file: 'reports/a=b.json' });
    expect(parseMatrixArg('a=b.json', (p) => p === 'a=b.json')).toEqual({ file: 'a=b.json' });
    const m = buildMatrix([
      { file: '/r/one.json', report: oldest },
      { file: '/s/one.json', report: oldest },
      { file: '/t/x.json', report: other, name: 'theirs' },
    ]);
    expect(m.columns.map((c) => c.name)).toEqual([
      'idea-vscode 0.1.6 — VS Code 1.100.3 (code-server 4.100.3) (one.json)',
      'idea-vscode 0.1.6 — VS Code 1.100.3 (code-server 4.100.3) (one.json) #2',
      'theirs',
    ]);
  });

  it('refuses what is not a report, naming the file and the case', () => {
    expect(() => buildMatrix([{ file: 'a.json', report: { cases: 'no' } }])).toThrow(
      /a\.json: not an idea-conformance JSON report/,
    );
    expect(() => buildMatrix([{ file: 'b.json', report: { cases: [{ id: 'x', verdict: 'pwned' }] } }])).toThrow(
      /b\.json: cases\[0\] has no id or no known verdict/,
    );
    expect(() => buildMatrix([{ file: 'c.json', report: { cases: [null] } }])).toThrow(/c\.json: cases\[0\]/);
  });

  it('writes Markdown whose cells stay one cell each and carry no markup from the reports', () => {
    const md = matrixToMarkdown(
      buildMatrix([
        { file: files.oldest!, report: oldest },
        { file: files.other!, report: other },
      ]),
    );
    // Markup from a report is only ever inside a code span (where it is text) or escaped.
    expect(md.replace(/`[^`\n]*`/g, '')).not.toMatch(/<img|<script/);
    const tableRows = md.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| **'));
    // Every row of the case table has exactly one cell per column: no pipe or newline got through.
    for (const l of tableRows) expect(l.split(/(?<!\\)\|/).length - 2).toBe(3);
    expect(tableRows.length).toBe(6 + 6);
    expect(md).toContain('| `protocol/handshake-success` | ✅ pass | ❌ fail |');
    expect(md).toContain('| `edit-find/no-match` | ✅ pass | ❌ fail (expected) |');
    expect(md).toContain('| `security/oversize-frame` | ✅ pass | — |');
    expect(md).toContain(`**[T3](${PROTOCOL_MD}#clause-t3)** Handshake success`);
  });

  it('`matrix` writes both files from the command line; the HTML filters rows and keeps hostile text as text', async () => {
    const out = { markdown: join(tmp, 'out', 'matrix.md'), html: join(tmp, 'out', 'matrix.html') };
    expect(
      matrixCli([
        files.oldest!,
        files.newest!,
        `theirs=${files.other}`,
        '--markdown',
        out.markdown,
        '--html',
        out.html,
      ]),
    ).toBe(0);
    expect(readFileSync(out.markdown, 'utf8')).toContain(
      '| case | idea-vscode 0.1.6 — VS Code 1.100.3 (code-server 4.100.3) | idea-vscode 0.1.6 — VS Code 1.139.1 (code-server 4.139.1) | theirs |',
    );
    expect(matrixCli([join(tmp, 'missing.json')])).toBe(2);
    expect(matrixCli([])).toBe(2);
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(out.html).href);
    const rows = () => page.locator('tr.case:not([hidden])').count();
    expect(await rows()).toBe(6);
    expect(await page.locator('table.matrix thead th').allTextContents()).toEqual([
      'case',
      'idea-vscode 0.1.6 — VS Code 1.100.3 (code-server 4.100.3)',
      'idea-vscode 0.1.6 — VS Code 1.139.1 (code-server 4.139.1)',
      'theirs',
    ]);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // "only cases where implementations differ", reached by Tab
    expect(await page.locator('input[name=differ]').isChecked()).toBe(true);
    // Only connection-survives-errors (pass everywhere) agrees; a missing case counts as a difference.
    expect(await rows()).toBe(5);
    await page.uncheck('input[name=differ]');
    expect(await rows()).toBe(6);
    await page.check('input[name=nopass]');
    expect(await rows()).toBe(5);
    expect(await page.locator('tbody.clause:not([hidden])').count()).toBe(5); // the T1 group has no row left
    await page.fill('input[name=q]', 'second-handshake');
    expect(await rows()).toBe(1);
    expect(await page.textContent('#shown')).toBe('1 of 6 cases shown');
    const seen = (await page.evaluate(
      '({ pwned: window.__pwned, imgs: document.images.length, scripts: document.scripts.length, text: document.body.textContent })',
    )) as { pwned?: number; imgs: number; scripts: number; text: string };
    expect(seen).toMatchObject({ pwned: undefined, imgs: 0, scripts: 1 });
    expect(seen.text).toContain('<img src=x onerror=');
    expect(errors).toEqual([]);
    await page.screenshot({ path: new URL('../../reports/matrix-test.png', import.meta.url).pathname });
    await page.close();
  });
});
