// diagnostics/changed coverage, VS Code-free (clause T35): which files are covered and for how long
// (server-core/events/coverage.ts), how requests feed it without delaying their answers (withCoverage),
// and the rule that a file leaving coverage is not reported (CoreEventSources, DiagnosticsBaseline).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RawDiagnostic } from '../../../server-core/diagnostics';
import {
  COVER_FILES,
  Coverage,
  type CoveredFile,
  RECHECK_MS,
  REOPEN_MIN_MS,
  withCoverage,
} from '../../../server-core/events/coverage';
import {
  DiagnosticsBaseline,
  type EventDiagnostic,
  MAX_LEFT_FILES,
} from '../../../server-core/events/diagnostics-delta';
import { EventScope } from '../../../server-core/events/scope';
import { CLOSE_GRACE_MS, CoreEventSources, DIAGNOSTICS_CHANGED } from '../../../server-core/events/sources';
import type { FileCoverage } from '../../../server-core/host';
import type { Handlers } from '../../../server-core/protocol';
import { tick, until } from '../../support/wait';

/** A platform that records what it was asked; `gate` holds an open until released. */
function platform() {
  const opened: CoveredFile[][] = [];
  const released: string[][] = [];
  let gate: Promise<void> | undefined;
  return {
    opened,
    released,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    part: {
      open: async (files: readonly CoveredFile[]) => {
        opened.push([...files]);
        await gate;
      },
      release: (paths: readonly string[]) => {
        released.push([...paths]);
      },
    },
  };
}

describe('Coverage', () => {
  let now = 1_000_000;
  const clock = () => now;
  const all = (_path: string) => true;
  const log = () => {};
  const made: Coverage[] = [];
  const coverage = (
    p: ReturnType<typeof platform>,
    limits: { ms: number; files: number; reopenDelayMs?: number } = { ms: 120_000, files: 3 },
    reportable = all,
  ) => {
    const c = new Coverage(reportable, p.part, log, limits, clock);
    made.push(c);
    return c;
  };
  afterEach(() => {
    for (const c of made.splice(0)) c.dispose();
  });

  it('opens the files named or written, reportable ones only, off the caller', async () => {
    const p = platform();
    const c = coverage(p, { ms: 120_000, files: 3 }, (path: string) => !path.includes('.git'));
    c.touched(['/w/a.ts', '/w/.git/config'], 'written');
    expect(p.opened).toEqual([]); // nothing runs inside the call
    await tick();
    expect(p.opened).toEqual([[{ path: '/w/a.ts', reason: 'written' }]]);
    expect(c.covers('/w/a.ts')).toBe(true);
    expect(c.covers('/w/.git/config')).toBe(false);
  });

  it(`covers the ${COVER_FILES} (here 3) most recent files: older ones are released`, async () => {
    const p = platform();
    const c = coverage(p);
    c.touched(['/w/1', '/w/2', '/w/3'], 'named');
    c.touched(['/w/1'], 'named'); // used again: now the most recent
    c.touched(['/w/4'], 'written');
    expect(p.released).toEqual([['/w/2']]);
    expect(['/w/1', '/w/2', '/w/3', '/w/4'].map((f) => c.covers(f))).toEqual([true, false, true, true]);
    // A write of many files covers its last ones, not more than the bound.
    c.touched(['/w/a', '/w/b', '/w/c', '/w/d', '/w/e'], 'written');
    expect(p.released.flat().sort()).toEqual(['/w/1', '/w/2', '/w/3', '/w/4']);
    expect(['/w/c', '/w/d', '/w/e'].every((f) => c.covers(f))).toBe(true);
  });

  it(`checks a file named again at most once per RECHECK_MS (${RECHECK_MS} ms); one no longer reportable then stays out`, async () => {
    const p = platform();
    let checks = 0;
    let allowed = true;
    const c = coverage(p, { ms: 120_000, files: 3 }, () => (checks++, allowed));
    c.touched(['/w/a'], 'named');
    now += RECHECK_MS - 1;
    c.touched(['/w/a'], 'named');
    c.touched(['/w/a'], 'named');
    expect(checks).toBe(1);
    allowed = false; // excluded since (a settings change), or its symlink now points outside
    now += 1;
    c.touched(['/w/a'], 'named'); // checked again: not refreshed
    expect(checks).toBe(2);
    now += 120_000 - 1; // the cover time since the last naming that refreshed it (1 ms ago before the check)
    expect(c.covers('/w/a')).toBe(false);
    c.touched(['/w/b'], 'named'); // a path never covered is always checked
    expect(checks).toBe(3);
    expect(c.covers('/w/b')).toBe(false);
    await tick();
    expect(p.opened.flat().map((f) => f.path)).toEqual(['/w/a']);
  });

  it('releases a file once it was not named or written for the cover time, by a timer', () => {
    // The default clock (Date.now) and the timer, both faked: the release is seen at its due time.
    vi.useFakeTimers();
    try {
      const p = platform();
      const c = new Coverage(all, p.part, log, { ms: 300, files: 50 });
      made.push(c);
      c.touched(['/w/old'], 'named');
      vi.advanceTimersByTime(150);
      c.touched(['/w/new'], 'named');
      vi.advanceTimersByTime(149);
      expect(p.released).toEqual([]);
      vi.advanceTimersByTime(3); // /w/old's time is up at 300 ms, /w/new's at 450 ms
      expect(p.released).toEqual([['/w/old']]);
      expect(c.covers('/w/old')).toBe(false);
      expect(c.covers('/w/new')).toBe(true);
      vi.advanceTimersByTime(146);
      expect(p.released).toEqual([['/w/old']]);
      vi.advanceTimersByTime(3);
      expect(p.released).toEqual([['/w/old'], ['/w/new']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens one batch at a time: files named meanwhile wait and go together', async () => {
    const p = platform();
    const c = coverage(p, { ms: 120_000, files: 50 });
    const open = p.hold();
    c.touched(['/w/a'], 'written');
    await tick();
    c.touched(['/w/b'], 'named');
    c.touched(['/w/c'], 'named');
    await tick();
    expect(p.opened).toEqual([[{ path: '/w/a', reason: 'written' }]]);
    open();
    await until('the second batch', () => p.opened.length === 2);
    expect(p.opened[1]).toEqual([
      { path: '/w/b', reason: 'named' },
      { path: '/w/c', reason: 'named' },
    ]);
  });

  it('a failing platform fails nothing', async () => {
    const logged: string[] = [];
    const c = new Coverage(
      all,
      {
        open: () => Promise.reject(new Error('no server')),
        release: () => {
          throw new Error('gone');
        },
      },
      (m) => logged.push(m),
      { ms: 120_000, files: 1 },
    );
    made.push(c);
    c.touched(['/w/a'], 'written');
    c.touched(['/w/b'], 'written');
    await until('the failed open logged', () => logged.some((m) => /no server/.test(m)), { detail: () => logged });
    expect(logged.join('\n')).toMatch(/no server/);
    expect(logged.join('\n')).toMatch(/gone/);
  });

  it('a covered file the platform closed by itself is opened again, at most once per REOPEN_MIN_MS', async () => {
    const p = platform();
    const c = coverage(p, { ms: 120_000, files: 50, reopenDelayMs: 0 });
    c.touched(['/w/a'], 'written');
    await tick();
    c.closed('/w/a');
    c.closed('/w/a');
    await until('the file opened again', () => p.opened.length === 2);
    // Opened again as named: a tab the person closed is not brought back for the write from before.
    expect(p.opened).toEqual([[{ path: '/w/a', reason: 'written' }], [{ path: '/w/a', reason: 'named' }]]);
    now += REOPEN_MIN_MS;
    c.closed('/w/a');
    c.closed('/w/never-covered');
    await until('the file opened a second time', () => p.opened.length === 3);
    expect(p.opened[2]).toEqual([{ path: '/w/a', reason: 'named' }]);
    now += 120_000; // no longer covered: closing is leaving
    c.closed('/w/a');
    // A reopen is armed on a timer of reopenDelayMs, and timers of one delay fire in the order armed:
    // once the reopen of a file still covered, armed after, is here, one of /w/a would have been too.
    c.touched(['/w/s'], 'written');
    c.closed('/w/s');
    await until('the covered file opened again', () =>
      p.opened.flat().some((f) => f.path === '/w/s' && f.reason === 'named'),
    );
    expect(p.opened.slice(3)).toEqual([[{ path: '/w/s', reason: 'written' }], [{ path: '/w/s', reason: 'named' }]]);
  });
});

describe('withCoverage', () => {
  let ws: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'idea-coverage-')));
    writeFileSync(join(ws, 'a.ts'), '');
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  function hosted() {
    const log: string[] = [];
    const coverage: FileCoverage = {
      touched: (paths, reason) => log.push(`${reason} ${paths.join(',')}`),
    };
    const host = {
      coverage: undefined as FileCoverage | undefined,
      folders: {
        paths: () => [ws],
        searchSettings: () => ({ filesExclude: undefined, searchExclude: undefined, useIgnoreFiles: true }),
      },
    };
    return { host, coverage, log };
  }

  it("a write's files are recorded after its answer, only when it succeeded", async () => {
    const { host, coverage, log } = hosted();
    host.coverage = coverage; // read at each call: set after the handlers were made
    let fail = false;
    const handlers = withCoverage(host, {
      editReplace: (async () => {
        if (fail) throw new Error('refused');
        return { replacedCount: 1, affectedFiles: [join(ws, 'a.ts')] };
      }) as unknown as Handlers['editReplace'],
    });
    const answer = await handlers.editReplace!({} as never, {} as never);
    log.push('answered');
    expect(answer.affectedFiles).toEqual([join(ws, 'a.ts')]);
    await tick();
    expect(log).toEqual(['answered', `written ${join(ws, 'a.ts')}`]);
    fail = true;
    await expect(handlers.editReplace!({} as never, {} as never)).rejects.toThrow('refused');
    await tick();
    expect(log).toHaveLength(2);
  });

  it("a naming request's files are recorded as it starts, resolved; outside ones are never covered", async () => {
    const { host, coverage, log } = hosted();
    host.coverage = coverage;
    let finish!: () => void;
    const handlers = withCoverage(host, {
      diagList: (() =>
        new Promise((r) => {
          finish = () => r({ diagnostics: [], totalCount: 0 });
        })) as unknown as Handlers['diagList'],
      editFind: (async () => ({ matches: [] })) as unknown as Handlers['editFind'],
    });
    const named = ['a.ts', '../outside.ts', '/elsewhere/b.ts', `${ws}/sub/../c.ts`];
    const pending = handlers.diagList!({ filePath: named } as never, {} as never);
    await tick();
    // A relative path is resolved in the workspace (one outside it left out); an absolute one goes on as
    // it is, for the coverage's `reportable` to judge (below).
    expect(log).toEqual([`named ${join(ws, 'a.ts')},/elsewhere/b.ts,${join(ws, 'c.ts')}`]);
    finish();
    await pending;
    await handlers.editFind!({ pattern: 'x' } as never, {} as never);
    await tick();
    expect(log).toHaveLength(1); // edit/find names no file

    // With the server's Coverage over its EventScope, the file outside is never opened.
    const p = platform();
    const real = new Coverage(
      (path) => new EventScope(host.folders).reportable(path),
      p.part,
      () => {},
    );
    host.coverage = real;
    const again = handlers.diagList!({ filePath: ['a.ts', '/elsewhere/b.ts'] } as never, {} as never);
    finish();
    await again;
    await until('the named files opened', () => p.opened.length > 0);
    real.dispose();
    expect(p.opened.flat().map((f) => f.path)).toEqual([join(ws, 'a.ts')]);
  });

  it('without a coverage the handlers are called as they are', async () => {
    const { host } = hosted();
    const h = (async () => ({ replacedCount: 0, affectedFiles: [] })) as unknown as Handlers['editReplace'];
    const handlers = withCoverage(host, { editReplace: h });
    expect(await handlers.editReplace!({} as never, {} as never)).toEqual({ replacedCount: 0, affectedFiles: [] });
  });
});

const diag = (message: string): EventDiagnostic => ({
  line: 0,
  character: 0,
  endLine: 0,
  endCharacter: 1,
  severity: 'error',
  message,
  source: 'ts',
  code: null,
});
const raw = (message: string): RawDiagnostic => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  severity: 0,
  message,
  source: 'ts',
});

describe('leaving coverage', () => {
  it('the baseline keeps what was last reported of a file that left; its next update is relative to it', () => {
    const b = new DiagnosticsBaseline();
    b.update('/w/a.ts', [diag('A')]);
    b.leave('/w/a.ts');
    expect(b.hasLeft('/w/a.ts')).toBe(true);
    expect(b.snapshot()).toEqual([{ filePath: '/w/a.ts', added: [diag('A')], removed: [], total: 1 }]);
    expect(b.update('/w/a.ts', [diag('A')])).toBeUndefined(); // covered again, unchanged: nothing to say
    expect(b.hasLeft('/w/a.ts')).toBe(false);
    b.leave('/w/a.ts');
    expect(b.update('/w/a.ts', [diag('B')])).toEqual({
      filePath: '/w/a.ts',
      added: [diag('B')],
      removed: [diag('A')],
      total: 1,
    });
  });

  it(`keeps at most ${MAX_LEFT_FILES} files that left, forgetting the oldest`, () => {
    const b = new DiagnosticsBaseline();
    for (let i = 0; i <= MAX_LEFT_FILES; i++) {
      b.update(`/w/${i}`, [diag('A')]);
      b.leave(`/w/${i}`);
    }
    expect(b.snapshot()).toHaveLength(MAX_LEFT_FILES);
    expect(b.hasLeft('/w/0')).toBe(false);
    expect(b.update('/w/0', [diag('A')])?.added).toEqual([diag('A')]);
  });

  describe('CoreEventSources', () => {
    let ws: string;
    let sources: CoreEventSources;
    const emitted: { files: { filePath: string; added: unknown[]; removed: unknown[]; total: number }[] }[] = [];
    beforeEach(() => {
      emitted.length = 0;
      ws = realpathSync(mkdtempSync(join(tmpdir(), 'idea-leaving-')));
      for (const f of ['a.ts', 'b.ts', 'c.ts']) writeFileSync(join(ws, f), '');
      sources = new CoreEventSources(
        new EventScope({
          paths: () => [ws],
          searchSettings: () => ({ filesExclude: undefined, searchExclude: undefined, useIgnoreFiles: true }),
        }),
        ((event: string, data: (typeof emitted)[number]) => {
          if (event === DIAGNOSTICS_CHANGED) emitted.push(data);
        }) as never,
      );
    });
    afterEach(() => {
      sources.dispose();
      rmSync(ws, { recursive: true, force: true });
    });

    it('a file whose document closed is not reported when its diagnostics are cleared', () => {
      const a = join(ws, 'a.ts');
      sources.diagnosticsChanged([{ filePath: a, diagnostics: [raw('A')], held: true }]);
      expect(emitted).toHaveLength(1);
      sources.documentsClosed([a]);
      sources.diagnosticsChanged([{ filePath: a, diagnostics: [], held: false }]);
      sources.diagnosticsChanged([{ filePath: a, diagnostics: [], held: false }]); // cleared again: still nothing
      expect(emitted).toHaveLength(1);
      expect(sources.initial(DIAGNOSTICS_CHANGED)).toEqual({
        files: [{ filePath: a, added: [diag('A')], removed: [], total: 1 }],
      });
      // Open again with other diagnostics: the change since what was last reported.
      sources.diagnosticsChanged([{ filePath: a, diagnostics: [raw('B')], held: true }]);
      expect(emitted[1]!.files).toEqual([{ filePath: a, added: [diag('B')], removed: [diag('A')], total: 1 }]);
    });

    it('is reported: a clear while held, a clear with no close before it, a clear long after, a deleted file', () => {
      const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'].map((f) => join(ws, f)) as [string, string, string];
      const gone = join(ws, 'gone.ts');
      writeFileSync(gone, '');
      for (const f of [a, b, c, gone])
        sources.diagnosticsChanged([{ filePath: f, diagnostics: [raw('A')], held: true }]);
      emitted.length = 0;
      sources.documentsClosed([a, gone]);
      rmSync(gone);
      sources.diagnosticsChanged([
        { filePath: a, diagnostics: [], held: true }, // reopened meanwhile: a fix
        { filePath: b, diagnostics: [], held: false }, // never closed: another source cleared it
        { filePath: c, diagnostics: [] }, // the platform does not say
        { filePath: gone, diagnostics: [], held: false }, // closed because deleted
      ]);
      expect(emitted[0]!.files.map((f) => [f.filePath, f.total])).toEqual([
        [a, 0],
        [b, 0],
        [c, 0],
        [gone, 0],
      ]);
    });

    it(`a clear more than CLOSE_GRACE_MS (${CLOSE_GRACE_MS} ms) after the close is reported`, () => {
      const a = join(ws, 'a.ts');
      sources.diagnosticsChanged([{ filePath: a, diagnostics: [raw('A')], held: true }]);
      const realNow = Date.now;
      sources.documentsClosed([a]);
      try {
        Date.now = () => realNow() + CLOSE_GRACE_MS;
        sources.diagnosticsChanged([{ filePath: a, diagnostics: [], held: false }]);
      } finally {
        Date.now = realNow;
      }
      expect(emitted.at(-1)!.files).toEqual([{ filePath: a, added: [], removed: [diag('A')], total: 0 }]);
    });
  });
});
