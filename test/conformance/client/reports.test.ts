// A client run's reports read like a server run's (console, JSON, JUnit, HTML, Markdown, the matrix of
// clients × scenarios by clause), with what differs said: the command judged instead of a server, the
// client clauses linked where they are rendered (the v0.1.8 draft's protocol.md), the clause coverage
// of the clauses binding clients. Then the expected-failures baseline and the command line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCli } from '../../../conformance/client/cli';
import { runClientSuite } from '../../../conformance/client/run';
import { SCENARIOS } from '../../../conformance/client/scenarios';
import { CLIENT_CLAUSES } from '../../../conformance/lib/clauses';
import { coverageOfRun } from '../../../conformance/lib/coverage';
import { buildMatrix } from '../../../conformance/lib/matrix';
import { ConsoleReporter } from '../../../conformance/reporters/console';
import { summaryToHtml } from '../../../conformance/reporters/html';
import { summaryToJson } from '../../../conformance/reporters/json';
import { summaryToJUnit } from '../../../conformance/reporters/junit';
import { summaryToMarkdown } from '../../../conformance/reporters/markdown';
import { matrixToMarkdown } from '../../../conformance/reporters/matrix';
import type { RunSummary } from '../../../conformance/reporters/types';

const CLIENT = `"${process.execPath}" "${join(import.meta.dirname, 'clients', 'node-client.mjs')}"`;
const PICKED = ['answers/out-of-order', 'errors/every-code', 'security/loopback-only'];
const picked = SCENARIOS.filter((s) => PICKED.includes(s.id));
const DIR = 'conformance/client';

let good: RunSummary;
let bad: RunSummary;
let consoleText = '';
const tmp = mkdtempSync(join(tmpdir(), 'client-reports-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  const stream = Object.assign(
    new (await import('node:stream')).Writable({
      write(chunk, _enc, done) {
        consoleText += String(chunk);
        done();
      },
    }),
    { isTTY: false },
  );
  [good, bad] = await Promise.all([
    runClientSuite({ command: CLIENT, scenarios: picked, implementation: { name: 'reference' } }),
    runClientSuite({
      command: `${CLIENT} --bug code-lost`,
      scenarios: picked,
      implementation: { name: 'code-lost' },
      reporters: [new ConsoleReporter({ stream, color: false, fixturesDir: DIR })],
    }),
  ]);
}, 60_000);

describe('a client run, reported', () => {
  it('on the console: the command, each finding with its clause link and scenario, the verdict', () => {
    expect(consoleText).toMatch(/^idea-conformance client: 3 scenarios judging `.*--bug code-lost` \(each against/);
    expect(consoleText).toContain('FAIL          errors/every-code');
    expect(consoleText).toContain(
      'clause C5 (text: An error answer is reported by its code), core profile, must: generated/v0.1.8/protocol.md#clause-c5',
    );
    expect(consoleText).toContain(`fixture: ${DIR}/scenarios.ts`);
    expect(consoleText).toContain(
      '+ printed: {"error":{"code":"HANDLER_ERROR","message":"INVALID_REQUEST for request 1"}}',
    );
    expect(consoleText).toMatch(/3 scenarios in [\d.]+ s: 2 passed, 1 failed/);
    expect(consoleText).toContain(
      'NOT CONFORMANT: not conformant as a client in 3 scenarios (core, readings, security)',
    );
  });

  it('as JSON: the client, each scenario with its clause and link, its frames with the token redacted', () => {
    const j = summaryToJson(good) as {
      client: unknown;
      ok: boolean;
      implementation: unknown;
      cases: { id: string; clause: string; clauseLink: string; verdict: string; transcript?: { text: string }[] }[];
    };
    expect(j).toMatchObject({
      client: { command: CLIENT, timeoutMs: 15_000 },
      ok: true,
      implementation: { name: 'reference' },
    });
    expect(j.cases.map((c) => [c.id, c.clause, c.clauseLink, c.verdict])).toEqual([
      ['answers/out-of-order', 'T2', 'generated/v0.1.8/protocol.md#clause-t2', 'pass'],
      ['errors/every-code', 'C5', 'generated/v0.1.8/protocol.md#clause-c5', 'pass'],
      ['security/loopback-only', 'C6', 'generated/v0.1.8/protocol.md#clause-c6', 'pass'],
    ]);
    const hello = j.cases[0]!.transcript!.find((t) => t.text.includes('"type":"handshake","token"'))!;
    expect(hello.text).toBe('{"type":"handshake","token":"‹redacted›"}');
    expect(j.cases[2]!.transcript).toEqual([]); // it never connected
  });

  it('as JUnit: a suite per area, the failure with its context', () => {
    const xml = summaryToJUnit(bad, DIR);
    expect(xml).toContain('<testsuite name="errors" tests="1" failures="1" errors="0" skipped="0"');
    expect(xml).toMatch(/<testcase classname="idea-conformance.errors" name="errors\/every-code"[^>]*>\n\s+<failure /);
    expect(xml).toContain('clause C5 (text: An error answer is reported by its code)');
    expect(xml).toContain('<testsuite name="answers" tests="1" failures="0"');
  });

  it('as HTML and Markdown: the command, and the coverage of the clauses binding clients', () => {
    const html = summaryToHtml(bad, { fixturesDir: DIR });
    expect(html).toContain('<title>IDEA client conformance: not conformant — code-lost</title>');
    expect(html).toContain('<dt>client</dt><dd><code>');
    expect(html).not.toContain('<dt>server</dt>');
    const cov = coverageOfRun(bad);
    expect(cov.map((c) => c.id)).toEqual([...CLIENT_CLAUSES.keys()]);
    expect(cov.find((c) => c.id === 'C5')!.cases).toEqual([{ id: 'errors/every-code', mark: 'fail' }]);
    expect(html).toContain('href="generated/v0.1.8/protocol.md#clause-c5"');
    const md = summaryToMarkdown(bad, DIR);
    expect(md).toMatch(/^## IDEA client conformance: not conformant ❌\n\nnot conformant as a client in 3 scenarios/);
  });

  it('as the matrix: clients × scenarios, grouped by clause', () => {
    const m = buildMatrix([
      { file: 'reference.json', report: summaryToJson(good) },
      { file: 'code-lost.json', report: summaryToJson(bad) },
    ]);
    expect(m.columns.map((c) => [c.name, c.ok])).toEqual([
      ['reference', true],
      ['code-lost', false],
    ]);
    expect(m.groups.map((g) => [g.clause, g.title, g.rows.map((r) => r.cells.map((c) => c?.verdict))])).toEqual([
      ['T2', 'Replies may come out of order', [['pass', 'pass']]],
      ['C5', 'An error answer is reported by its code', [['pass', 'fail']]],
      ['C6', 'A client reaches a server only on loopback unless told otherwise', [['pass', 'pass']]],
    ]);
    expect(matrixToMarkdown(m)).toContain('[C5](generated/v0.1.8/protocol.md#clause-c5)');
  });
});

describe('the expected-failures baseline', () => {
  it('lets a project adopt the gate before it passes everything, and keeps the list honest', async () => {
    const one = SCENARIOS.filter((s) => s.id === 'errors/every-code');
    const allIds = new Set(SCENARIOS.map((s) => s.id));
    const listed = await runClientSuite({
      command: `${CLIENT} --bug code-lost`,
      scenarios: one,
      allIds,
      expectedFailures: new Map([['errors/every-code', 'our error mapping loses codes (issue 7)']]),
    });
    expect([listed.ok, listed.results[0]!.expectedFailure, listed.stale]).toEqual([true, true, []]);
    expect(listed.results[0]!.reason).toMatch(
      /^expected failure \(our error mapping loses codes \(issue 7\)\); answers/,
    );
    const stale = await runClientSuite({
      command: CLIENT,
      scenarios: one,
      allIds,
      expectedFailures: new Map([
        ['errors/every-code', 'fixed since'],
        ['answers/no-such-scenario', 'a typo'],
      ]),
    });
    expect(stale.ok).toBe(false);
    expect(stale.stale).toEqual([
      'errors/every-code: listed as an expected failure but passes',
      'answers/no-such-scenario: listed as an expected failure but no such case exists',
    ]);
  }, 30_000);
});

describe('idea-conformance client', () => {
  it('refuses a run without a command or with a scenario that does not exist (exit 2)', async () => {
    expect(await clientCli([])).toBe(2);
    expect(await clientCli(['--command', CLIENT, '--scenario', 'answers/nope'])).toBe(2);
    expect(await clientCli(['--command', CLIENT, '--timeout', '10'])).toBe(2);
  });

  it('runs the scenarios a glob selects, writes the reports asked for, and exits 1 on a failure', async () => {
    const json = join(tmp, 'client.json');
    const xf = join(tmp, 'xf.json');
    // Losing error codes fails both errors/ scenarios (CANCELLED is a code too).
    const reasons = ['errors/every-code', 'errors/cancelled'].map((id) => ({ id, reason: 'codes lost' }));
    writeFileSync(xf, JSON.stringify({ expectedFailures: reasons }));
    const args = ['--command', `${CLIENT} --bug code-lost`, '--scenario', 'errors/*', '--reporter', `json:${json}`];
    expect(await clientCli(args)).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cases: { id: string; verdict: string }[] };
    expect(report.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['errors/every-code', 'fail'],
      ['errors/cancelled', 'fail'],
    ]);
    expect(await clientCli([...args, '--expected-failures', xf])).toBe(0);
  }, 30_000);
});
