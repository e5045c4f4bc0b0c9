// clause T58: a write given diagnostics: true answers the diagnostics of each file it changed or created
// (that still exists), asked of the host after the write, waiting at most diagnosticsWaitMs (settled
// false past it, with what is known); a file no server serves carries unavailable; a dry run waits for
// nothing; every write topic does it; a cancel during the wait ends the wait, not the answer.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { RawDiagnostic } from '../../../server-core/diagnostics';
import { createCoreHandlers } from '../../../server-core/handlers/index';
import type { LanguageFeatures } from '../../../server-core/host';
import { type AnswerFrame, coreSession } from '../core-session';
import { type FakeHost, fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-write-diag-'));
const ws = join(root, 'ws');
const a = join(ws, 'a.ts');
const b = join(ws, 'b.md');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const diag = (line: number, message: string): RawDiagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  severity: 0,
  message,
  source: 'ts',
  code: 2304,
});

/** What the stand-in language server was asked: each path and the `since` it was given. */
let asked: { path: string; since: number | undefined; at: number }[];
let host: FakeHost;
let ask: (topic: string, params: object) => Promise<AnswerFrame>;
function serve(diagnostics: LanguageFeatures['diagnostics'], known: RawDiagnostic[] = []) {
  asked = [];
  host = fakeHost(root, {
    language: {
      diagnostics: (path, signal, since) => {
        asked.push({ path, since, at: Date.now() });
        return diagnostics(path, signal, since);
      },
      allDiagnostics: () => [{ filePath: a, diagnostics: known }],
    },
  });
  ({ ask } = coreSession(host, 10_000));
}

beforeEach(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(join(root, 'state'), { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(a, 'const a = 1;\n');
  writeFileSync(b, '# b\n');
  writeFileSync(join(ws, 'c.ts'), 'c\n');
});

const editA = {
  kind: 'edit',
  filePath: 'a.ts',
  edits: [{ line: 0, character: 0, endLine: 0, endCharacter: 0, newText: 'x' }],
};

describe('diagnostics in the answer of a write', () => {
  it("answers each written file's diagnostics, asked after the write, as diag/list gives them", async () => {
    serve(async (path) => (path === a ? [diag(1, 'later'), diag(0, 'first')] : []));
    const before = Date.now();
    const { result } = await ask('edit/apply', {
      changes: [editA, { kind: 'create', filePath: 'new.ts', content: '' }, { kind: 'delete', filePath: 'c.ts' }],
      diagnostics: true,
    });
    expect(result!.diagnostics).toMatchObject({
      settled: true,
      files: [
        {
          filePath: a,
          diagnostics: [
            { filePath: a, line: 0, message: 'first', severity: 'error', source: 'ts', code: '2304' },
            { filePath: a, line: 1, message: 'later' },
          ],
        },
        { filePath: join(ws, 'new.ts'), diagnostics: [] },
      ],
    });
    // The deleted file is not asked about; each asked file's "since" is the write's end.
    expect(asked.map((q) => q.path)).toEqual([a, join(ws, 'new.ts')]);
    for (const q of asked) expect(q.since).toBeGreaterThanOrEqual(before);
  });

  it('waits at most diagnosticsWaitMs: past it, settled is false and the diagnostics are what is known', async () => {
    // A language server that never settles: answers only when the wait aborts it.
    serve(
      (_path, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        ),
      [diag(3, 'known before')],
    );
    const { result } = await ask('edit/apply', { changes: [editA], diagnostics: true, diagnosticsWaitMs: 300 });
    const d = result!.diagnostics as { settled: boolean; waitedMs: number; files: { diagnostics: unknown[] }[] };
    expect(d.settled).toBe(false);
    expect(d.waitedMs).toBeGreaterThanOrEqual(290);
    expect(d.waitedMs).toBeLessThan(3000);
    expect(d.files).toEqual([{ filePath: a, diagnostics: [expect.objectContaining({ message: 'known before' })] }]);
  });

  it('a file no language server serves carries unavailable (T48)', async () => {
    serve(async (path) =>
      path === b ? { unavailable: 'no language server for markdown', kind: 'none' } : [diag(0, 'x')],
    );
    const { result } = await ask('edit/apply', {
      changes: [
        {
          kind: 'edit',
          filePath: 'b.md',
          edits: [{ line: 0, character: 0, endLine: 0, endCharacter: 0, newText: 'x' }],
        },
      ],
      diagnostics: true,
    });
    expect((result!.diagnostics as { files: unknown[] }).files).toEqual([
      { filePath: b, diagnostics: [], unavailable: { kind: 'none', reason: 'no language server for markdown' } },
    ]);
  });

  it('a dry run, or a write not asked for them, waits for nothing and answers none', async () => {
    serve(async () => [diag(0, 'x')]);
    const dry = await ask('edit/apply', { changes: [editA], diagnostics: true, dryRun: true });
    expect(dry.result!.diagnostics).toBeUndefined();
    const plain = await ask('edit/apply', { changes: [editA] });
    expect(plain.result!.diagnostics).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('every write topic answers them: edit/replace, edit/undo, localhistory/rollback', async () => {
    serve(async () => [diag(0, 'x')]);
    const replaced = await ask('edit/replace', { pattern: 'const', replacement: 'let', diagnostics: true });
    expect(replaced.result!.diagnostics).toMatchObject({ settled: true, files: [{ filePath: a }] });
    const undone = await ask('edit/undo', { transactionId: replaced.result!.transactionId, diagnostics: true });
    expect(undone.result!.diagnostics).toMatchObject({ settled: true, files: [{ filePath: a }] });
    const entries = (await ask('localhistory/list', { filePath: 'a.ts' })).result!.entries as { id: string }[];
    const rolled = await ask('localhistory/rollback', {
      filePath: 'a.ts',
      toId: entries.at(-1)!.id,
      diagnostics: true,
    });
    expect(rolled.result!.diagnostics).toMatchObject({ files: [{ filePath: a }] });
  });

  it('a cancel during the wait ends the wait: the write is done and answered, not settled', async () => {
    serve(
      (_path, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        ),
    );
    const handlers = createCoreHandlers(host);
    const ctl = new AbortController();
    const answer = handlers.editApply!(
      { changes: [editA as never], diagnostics: true, diagnosticsWaitMs: 30_000, dryRun: false },
      { topic: '/app/vscode/edit/apply', requestId: 'r', signal: ctl.signal },
    );
    const t0 = Date.now();
    while (asked.length === 0 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 5));
    expect(asked, 'the server was asked').toHaveLength(1);
    ctl.abort(new Error('cancelled'));
    const result = await answer;
    expect(result.transactionId).toBeDefined();
    expect(result.diagnostics?.settled).toBe(false);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
