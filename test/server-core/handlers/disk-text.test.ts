// A definition's `code` in a file no editor or language server holds: the file is read once and its
// text reused while one stat finds it unchanged (issue 33, warm nav), so reads are counted here. A file
// changed on disk between two requests is read again and its new text answered; a file changed just
// before its stat is read every time (a timestamp coarser than the clock could hide a second change).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { coreContext } from '../../../server-core/context';
import { RACY_MS } from '../../../server-core/handlers/document';
import { navDefinition } from '../../../server-core/handlers/nav-definition';
import type { Range } from '../../../server-core/host';
import { fakeHost } from '../fake-host';

const reads = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const fsp = await importOriginal<typeof import('node:fs/promises')>();
  const readFile = ((path: string, ...rest: unknown[]) => {
    reads.push(String(path));
    return (fsp.readFile as (...a: unknown[]) => Promise<unknown>)(path, ...rest);
  }) as typeof fsp.readFile;
  return { ...fsp, default: { ...fsp, readFile }, readFile };
});

let root: string;
let from: string;
let target: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-disk-text-'));
  mkdirSync(join(root, 'ws'));
  from = join(root, 'ws', 'from.ts');
  target = join(root, 'ws', 'target.ts');
  writeFileSync(from, 'import { a } from "./target";\na;\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  reads.length = 0;
});

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const ctx = { topic: '/app/vscode/nav/definition' as const, requestId: 'r', signal: new AbortController().signal };
/** A host whose language server holds the requested file only, answering with `target`'s first line. */
function definition() {
  const host = fakeHost(root, {
    language: {
      definition: async () => [{ filePath: target, range: r(0, 13, 0, 14), targetRange: r(0, 0, 0, 19) }],
      syncedText: (p) => (p === from ? 'import { a } from "./target";\na;\n' : undefined),
    },
  });
  const handler = navDefinition(coreContext(host));
  return async () => (await handler({ filePath: from, line: 1, character: 0 }, ctx)).locations[0]!.code;
}
/** A minute ago, in seconds (for utimes). */
const MINUTE_AGO = Math.floor(Date.now() / 1000) - 60;
/**
 * Writes `text` to the target, with the given mtime (seconds) if any. `settled`: the clock then moves
 * on past RACY_MS (Date only: the write's ctime is now, so its stat is trusted only that much later).
 */
function write(text: string, o: { mtime?: number; settled: boolean }) {
  writeFileSync(target, text);
  if (o.mtime !== undefined) utimesSync(target, o.mtime, o.mtime);
  if (o.settled) {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + RACY_MS + 1000);
  } else vi.useRealTimers();
}
afterEach(() => {
  vi.useRealTimers();
});
const readsOfTarget = () => reads.filter((p) => p === target).length;

describe("a definition's code from a file read before", () => {
  it('is read once while unchanged, and again once it changed on disk (same length, even the same mtime)', async () => {
    const ask = definition();
    write('export const a = 1;\n', { mtime: MINUTE_AGO, settled: true });
    expect(await ask()).toBe('export const a = 1;');
    expect(await ask()).toBe('export const a = 1;');
    expect(await ask()).toBe('export const a = 1;');
    expect(readsOfTarget()).toBe(1);
    write('export const a = 2;\n', { mtime: MINUTE_AGO, settled: true }); // same size and mtime: the ctime tells
    expect(await ask()).toBe('export const a = 2;');
    write('export const a = 33;\n', { settled: true });
    expect(await ask()).toBe('export const a = 33');
    expect(readsOfTarget()).toBe(3);
  });

  it('is read every time while it changed too recently to trust its stat', async () => {
    const ask = definition();
    write('export const a = 4;\n', { settled: false });
    expect(await ask()).toBe('export const a = 4;');
    expect(await ask()).toBe('export const a = 4;');
    expect(readsOfTarget()).toBe(2);
  });

  it('is an error once the file is gone, and read again when it comes back', async () => {
    const ask = definition();
    write('export const a = 5;\n', { settled: true });
    expect(await ask()).toBe('export const a = 5;');
    rmSync(target);
    await expect(ask()).rejects.toThrow(/cannot open .*target\.ts: ENOENT/);
    write('export const a = 5;\n', { settled: true });
    expect(await ask()).toBe('export const a = 5;');
    expect(readsOfTarget()).toBe(3);
  });
});
