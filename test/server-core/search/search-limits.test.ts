// edit/find's engine under hostile input, with the real rg: what rg could not search is an error naming
// the file (PCRE2 match limit, unreadable files, overlong lines), never a silent gap; a regex that only
// JavaScript can run is stopped at its budget; rg processes wait for the shared process limiter.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../server-core/errors';
import { configureLimits } from '../../../server-core/limits/config';
import { processSlotStats, withProcessSlot } from '../../../server-core/limits/process-slots';
import { replaceInText } from '../../../server-core/search/replace-in-text';
import { rgListFiles } from '../../../server-core/search/ripgrep';
import { type SearchFolder, SearchIncompleteError, searchText } from '../../../server-core/search/text-search';
import { until } from '../../support/wait';
import { clientSignal } from '../limits/client-signal';
import { useTestSpawner } from '../spawn/spawner-build';
import { useTestRegexWorker } from './regex-worker-build';

useTestRegexWorker();
useTestSpawner();

const PLANTED = `${'a'.repeat(28)}b`;
let ws: string;
beforeAll(() => {
  ws = mkdtempSync(join(tmpdir(), 'idea-search-limits-'));
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src/plain.txt'), 'needle one\nalpha\n');
  writeFileSync(join(ws, 'src/planted.txt'), `x\n${PLANTED}\nneedle two\n`);
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));
afterEach(() => configureLimits({}));

const folders = (root = ws): SearchFolder[] => [{ root, selection: { excludes: [], useIgnoreFiles: true } }];
const find = (
  pattern: string,
  o: {
    isRegex?: boolean;
    rg?: string;
    root?: string;
    dirty?: { path: string; text: string }[];
    include?: string;
    signal?: AbortSignal;
  } = {},
) =>
  searchText({
    rg: o.rg ?? 'rg',
    folders:
      o.root || !o.include
        ? folders(o.root)
        : [{ root: ws, selection: { include: o.include, excludes: [], useIgnoreFiles: true } }],
    match: { pattern, isRegex: o.isRegex ?? false, isCaseSensitive: true },
    dirty: o.dirty ?? [],
    maxMatches: 100,
    signal: o.signal,
  });

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure, got an answer');
}

/** A stand-in rg: prints `stderr`, exits `code`, and logs how many stand-ins run at once. */
let fakes = 0;
function fakeRg(dir: string, stderr: string, code: number, sleep = 0): string {
  const script = join(dir, `fake-rg-${++fakes}.sh`);
  writeFileSync(
    script,
    `#!/bin/sh
mkdir -p "${dir}/running"; touch "${dir}/running/$$"; ls "${dir}/running" | wc -l >> "${dir}/concurrency.log"
${sleep ? `sleep ${sleep}` : ''}
printf '%s' '${stderr.replace(/'/g, "'\\''")}' >&2
rm -f "${dir}/running/$$"
exit ${code}
`,
  );
  chmodSync(script, 0o755);
  return script;
}

// clause H10: files that could not be searched fail the request; regex budgets; rg held to the process slots.
describe('rg problems are answered, not dropped', () => {
  it('PCRE2 hitting its match limit in a file fails the search naming that file', async () => {
    const e = await failure(find('(a+)+$', { isRegex: true }));
    expect(e).toBeInstanceOf(SearchIncompleteError);
    expect(e.message).toContain(join(ws, 'src/planted.txt'));
    expect(e.message).toMatch(/match limit/i);
  });

  it('an unreadable file fails the search naming it; a file that vanished meanwhile does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idea-fake-rg-'));
    try {
      const rg = fakeRg(
        dir,
        './secret.txt: Permission denied (os error 13)\nrg: ./gone.txt: No such file or directory (os error 2)\n',
        2,
      );
      const e = await failure(find('needle', { rg }));
      expect(e).toBeInstanceOf(SearchIncompleteError);
      expect(e.message).toContain(`${join(ws, 'secret.txt')} (Permission denied (os error 13))`);
      expect(e.message).not.toContain('gone.txt');
      const gone = fakeRg(dir, './gone.txt: No such file or directory (os error 2)\n', 2);
      await expect(find('needle', { rg: gone })).resolves.toMatchObject({ totalCount: 0 });
      // fs/findFiles gets the problems back to log, and keeps what it could list.
      await expect(rgListFiles(rg, ws, { excludes: [], useIgnoreFiles: false }, () => undefined)).resolves.toEqual([
        { relPath: 'secret.txt', message: 'Permission denied (os error 13)' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a malformed glob is INVALID_REQUEST, not an empty answer', async () => {
    const e = await failure(find('needle', { include: 'src/[' }));
    expect(e).toBeInstanceOf(ProtocolError);
    expect((e as ProtocolError).code).toBe('INVALID_REQUEST');
    expect(e.message).toMatch(/invalid glob/);
  });

  it('a matching line over maxLineBytes fails naming its file; with a higher limit it is searched', async () => {
    const big = mkdtempSync(join(tmpdir(), 'idea-bigline-'));
    try {
      writeFileSync(join(big, 'small.txt'), 'needle\n');
      writeFileSync(join(big, 'min.js'), `${'x'.repeat(3 << 20)} needle\n`);
      configureLimits({ maxLineBytes: 1 << 20 });
      for (const isRegex of [false, true]) {
        const e = await failure(find('needle', { root: big, isRegex }));
        expect(e.message).toMatch(
          new RegExp(`${join(big, 'min.js')} \\(matching line 1 is \\d+ bytes long, over the limit of 1048576 bytes`),
        );
      }
      configureLimits({ maxLineBytes: 8 << 20 });
      const r = await find('needle', { root: big, isRegex: true });
      expect(r.totalCount).toBe(2);
      expect(r.matches.find((m) => m.filePath.endsWith('min.js'))).toMatchObject({ line: 0, character: (3 << 20) + 1 });
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });
});

describe('regex budget', () => {
  it('a pattern only JavaScript can run (rg cannot compile [^]) is stopped at its budget', async () => {
    configureLimits({ regexTimeBudgetMs: 500 });
    const t0 = performance.now();
    const e = await failure(find('(a+)+$(?<![^]x)', { isRegex: true }));
    expect(e.message).toMatch(/exceeded its time budget of 500 ms/);
    expect(performance.now() - t0).toBeLessThan(3000);
    // The same construct with an innocent pattern still works through the fallback.
    const ok = await find('needle (?<![^]x)two', { isRegex: true });
    expect(ok).toMatchObject({ totalCount: 1, usedFallback: true });
  });

  it('unsaved documents are matched in the workers too, under the same budget', async () => {
    const clean = mkdtempSync(join(tmpdir(), 'idea-dirty-'));
    try {
      writeFileSync(join(clean, 'doc.txt'), 'nothing on disk\n');
      configureLimits({ regexTimeBudgetMs: 500 });
      // On disk rg finds nothing (no match limit either); the unsaved text is where the regex explodes.
      const dirty = [{ path: join(clean, 'doc.txt'), text: `${PLANTED}\n` }];
      const e = await failure(find('(a+)+$', { isRegex: true, root: clean, dirty }));
      expect(e.message).toMatch(/exceeded its time budget of 500 ms/);
      await expect(find('a+b', { isRegex: true, root: clean, dirty })).resolves.toMatchObject({ totalCount: 1 });
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });

  it('replaceInText: regex in a worker (budgeted, abortable), literal here; endings and $-expansion kept', async () => {
    const text = 'order-1\r\norder-22\rnone\norder-3';
    await expect(
      replaceInText({ pattern: 'order-(?<n>\\d+)', isRegex: true, isCaseSensitive: true }, '#$<n>/$1/$&', text),
    ).resolves.toEqual({ text: '#1/1/order-1\r\n#22/22/order-22\rnone\n#3/3/order-3', count: 3 });
    await expect(
      replaceInText({ pattern: 'ORDER-', isRegex: false, isCaseSensitive: false }, '$1', text),
    ).resolves.toEqual({ text: '$11\r\n$122\rnone\n$13', count: 3 });
    configureLimits({ regexTimeBudgetMs: 300 });
    await expect(
      replaceInText({ pattern: '(a+)+$(?<![^]x)', isRegex: true, isCaseSensitive: true }, 'x', `ok\n${PLANTED}\n`),
    ).rejects.toThrow(/time budget of 300 ms/);
    const e = await failure(replaceInText({ pattern: '(', isRegex: true, isCaseSensitive: true }, 'x', 'y'));
    expect((e as ProtocolError).code).toBe('INVALID_REQUEST');
    await expect(
      replaceInText({ pattern: 'a', isRegex: true, isCaseSensitive: true }, 'x', 'a', {
        signal: AbortSignal.abort(new Error('gone')),
      }),
    ).rejects.toThrow('gone');
  });
});

describe('process limiter', () => {
  it('never runs more rg processes than maxChildProcesses, however many searches are in flight', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idea-fake-rg-'));
    try {
      configureLimits({ maxChildProcesses: 3 });
      const rg = fakeRg(dir, '', 1, 0.05);
      const searches = Array.from({ length: 30 }, (_, i) =>
        find('needle', { rg, signal: clientSignal(`client-${i % 4}`) }),
      );
      await until(
        '3 searches running and 27 waiting',
        () => {
          const s = processSlotStats();
          return s.active === 3 && s.queued === 27;
        },
        { detail: processSlotStats },
      );
      await Promise.all(searches);
      const seen = readFileSync(join(dir, 'concurrency.log'), 'utf8').trim().split('\n').map(Number);
      expect(seen).toHaveLength(30);
      expect(Math.max(...seen)).toBeLessThanOrEqual(3);
      expect(readdirSync(join(dir, 'running'))).toEqual([]);
      expect(processSlotStats()).toMatchObject({ active: 0, queued: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a search's rg processes count as its client's, however many signals the search derives", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idea-fake-rg-'));
    try {
      // Two slots: one client may hold one. It holds it, so its search must wait while a slot is free.
      configureLimits({ maxChildProcesses: 2 });
      const rg = fakeRg(dir, '', 1, 0);
      let release = () => {};
      const holder = withProcessSlot(clientSignal('a'), () => new Promise<void>((r) => (release = r)));
      const search = find('needle', { rg, signal: clientSignal('a') });
      await until("the search to queue behind its own client's slot", () => processSlotStats().queued === 1, {
        detail: processSlotStats,
      });
      expect(processSlotStats()).toMatchObject({ active: 1, queued: 1 });
      release();
      await Promise.all([holder, search]);
      expect(processSlotStats()).toMatchObject({ active: 0, queued: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a search aborted while it waits for a slot never starts its rg', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idea-fake-rg-'));
    try {
      configureLimits({ maxChildProcesses: 1 });
      const rg = fakeRg(dir, '', 1, 0.2);
      const first = find('needle', { rg });
      const ac = new AbortController();
      const second = find('needle', { rg, signal: ac.signal });
      await until('the second search to queue for the slot', () => processSlotStats().queued === 1);
      ac.abort(new Error('connection closed'));
      await expect(second).rejects.toThrow('connection closed');
      await first;
      expect(readFileSync(join(dir, 'concurrency.log'), 'utf8').trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
