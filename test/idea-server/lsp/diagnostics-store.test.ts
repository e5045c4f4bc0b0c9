// The diagnostics store: publishes kept per path (non-file and malformed ones ignored), and the bounded
// wait until a file's diagnostics settle after we told the server about it.
import { describe, expect, it } from 'vitest';
import { DiagnosticsStore } from '../../../idea-server/src/lsp/diagnostics-store';
import { LspAbortError } from '../../../idea-server/src/lsp/errors';

const diag = (message: string) => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  message,
});
const times = { quietMs: 40, silentMs: 150 };

describe('DiagnosticsStore', () => {
  it('keeps the last publish per file path; ignores non-file URIs and malformed params', () => {
    const s = new DiagnosticsStore(times);
    s.publish({ uri: 'file:///p/a%20b.ts', diagnostics: [diag('one')] });
    s.publish({ uri: 'file:///p/a%20b.ts', diagnostics: [diag('two')] });
    s.publish({ uri: 'file:///p/clean.ts', diagnostics: [] });
    s.publish({ uri: 'untitled:x', diagnostics: [diag('x')] });
    s.publish({ uri: 'file:///p/z.ts', diagnostics: 'no' } as never);
    s.publish(null as never);
    expect(s.get('/p/a b.ts').map((d) => d.message)).toEqual(['two']);
    expect(s.all().map(([p]) => p)).toEqual(['/p/a b.ts']);
  });

  it('settles once a publish after the open has been quiet for quietMs; a later one in the window wins', async () => {
    const s = new DiagnosticsStore(times);
    s.sent('/p/a.ts');
    const started = Date.now();
    const settled = s.settled('/p/a.ts', { timeoutMs: 30_000 });
    s.publish({ uri: 'file:///p/a.ts', diagnostics: [diag('syntax')] });
    setTimeout(() => s.publish({ uri: 'file:///p/a.ts', diagnostics: [diag('syntax'), diag('semantic')] }), 10);
    expect(await settled).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(times.quietMs);
    expect(s.get('/p/a.ts').map((d) => d.message)).toEqual(['syntax', 'semantic']);
  });

  it('a publish from before the last didChange does not count; a file that stays silent keeps it after silentMs', async () => {
    const s = new DiagnosticsStore(times);
    s.publish({ uri: 'file:///p/a.ts', diagnostics: [] });
    s.sent('/p/a.ts');
    const started = Date.now();
    expect(await s.settled('/p/a.ts', { timeoutMs: 30_000 })).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(times.silentMs);
  });

  it('a file never published: false after the timeout; an abort rejects', async () => {
    const s = new DiagnosticsStore(times);
    s.sent('/p/a.ts');
    expect(await s.settled('/p/a.ts', { timeoutMs: 100 })).toBe(false);
    const ac = new AbortController();
    const waiting = s.settled('/p/a.ts', { timeoutMs: 30_000, signal: ac.signal });
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(LspAbortError);
  });
});
