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

  describe('a clean file changed: the checker asked instead of the silent wait', () => {
    const long = { quietMs: 40, silentMs: 60_000 };
    const changedClean = () => {
      const s = new DiagnosticsStore(long);
      s.publish({ uri: 'file:///p/a.ts', diagnostics: [] });
      s.sent('/p/a.ts');
      return s;
    };

    it('"nothing found" settles at once with the empty set', async () => {
      const s = changedClean();
      let asked = 0;
      const settled = s.settled('/p/a.ts', { timeoutMs: 30_000 }, async () => {
        asked++;
        return true;
      });
      expect(await Promise.race([settled, new Promise((r) => setTimeout(() => r('still waiting'), 2_000))])).toBe(true);
      expect([asked, s.get('/p/a.ts')]).toEqual([1, []]);
    });

    it('a finding (or a failed check) keeps the wait, asked once: the publish decides', async () => {
      const s = changedClean();
      let asked = 0;
      const settled = s.settled('/p/a.ts', { timeoutMs: 30_000 }, async () => {
        asked++;
        return false;
      });
      setTimeout(() => s.publish({ uri: 'file:///p/a.ts', diagnostics: [diag('semantic')] }), 50);
      expect(await settled).toBe(true);
      expect(asked).toBe(1);
      expect(s.get('/p/a.ts').map((d) => d.message)).toEqual(['semantic']);
    });

    it('not believed when a publish or another change came while it was asked', async () => {
      const s = changedClean();
      const settled = s.settled('/p/a.ts', { timeoutMs: 30_000 }, async () => {
        // A burst the server published meanwhile: its second part comes within quietMs.
        s.publish({ uri: 'file:///p/a.ts', diagnostics: [diag('syntax')] });
        setTimeout(() => s.publish({ uri: 'file:///p/a.ts', diagnostics: [diag('syntax'), diag('semantic')] }), 10);
        return true;
      });
      expect(await settled).toBe(true);
      expect(s.get('/p/a.ts').map((d) => d.message)).toEqual(['syntax', 'semantic']);
      const again = changedClean();
      let asked = 0;
      const second = again.settled('/p/a.ts', { timeoutMs: 300 }, async () => {
        if (++asked === 1) again.sent('/p/a.ts'); // the file changed again meanwhile: ask again
        return asked > 1;
      });
      expect([await second, asked]).toEqual([true, 2]);
    });

    it('a file that had diagnostics is not asked: its publish will come', async () => {
      const s = new DiagnosticsStore({ quietMs: 40, silentMs: 150 });
      s.publish({ uri: 'file:///p/a.ts', diagnostics: [diag('old')] });
      s.sent('/p/a.ts');
      let asked = 0;
      expect(
        await s.settled('/p/a.ts', { timeoutMs: 30_000 }, async () => {
          asked++;
          return true;
        }),
      ).toBe(true);
      expect(asked).toBe(0);
    });
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
