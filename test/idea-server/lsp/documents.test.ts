// The open documents kept in step with the disk: a burst of requests shares one sync pass (stats
// counted), and a request arriving while a pass runs still sees the disk as it was when it arrived.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Documents, SYNC_STAT_MAX } from '../../../idea-server/src/lsp/documents';

const stats = vi.hoisted(() => ({ count: 0, async: 0 }));
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return {
    ...real,
    stat: (...args: Parameters<typeof real.stat>) => {
      stats.async++;
      return real.stat(...args);
    },
  };
});
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return {
    ...real,
    statSync: (...args: Parameters<typeof real.statSync>) => {
      stats.count++;
      return real.statSync(...args);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'idea-lsp-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function documents() {
  const sent: string[] = [];
  const docs = new Documents(
    (method, p) =>
      sent.push(
        `${method.replace('textDocument/', '')} ${(p as { textDocument: { uri: string } }).textDocument.uri.split('/').pop()}`,
      ),
    () => {},
  );
  return { docs, sent };
}

describe('Documents', () => {
  it('a burst of requests shares one pass: each open file is looked at once, a changed one re-sent once', async () => {
    const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'].map((f) => join(dir, f)) as [string, string, string];
    for (const f of [a, b, c]) writeFileSync(f, `// ${f}\n`);
    const { docs, sent } = documents();
    await docs.sync(b, 'typescript');
    await docs.sync(c, 'typescript');
    writeFileSync(b, '// b, changed\n');
    sent.length = 0;
    stats.count = 0;
    const answers = await Promise.all(Array.from({ length: 50 }, () => docs.sync(a, 'typescript')));
    expect(new Set(answers.map((d) => d.path))).toEqual(new Set([a]));
    expect(stats.count).toBe(3);
    expect(sent.sort()).toEqual(['didChange b.ts', 'didOpen a.ts']);
  });

  it('stats a few open files synchronously, many through the thread pool (a main-thread bound)', async () => {
    const files = Array.from({ length: SYNC_STAT_MAX + 1 }, (_, i) => join(dir, `many-${i}.ts`));
    for (const f of files) writeFileSync(f, `// ${f}\n`);
    const { docs } = documents();
    for (const f of files.slice(0, SYNC_STAT_MAX)) await docs.sync(f, 'typescript');
    stats.count = 0;
    stats.async = 0;
    await docs.sync(files[0]!, 'typescript');
    expect([stats.count, stats.async]).toEqual([SYNC_STAT_MAX, 0]);
    await docs.sync(files.at(-1)!, 'typescript'); // one more open file: over the bound
    stats.count = 0;
    stats.async = 0;
    await docs.sync(files[0]!, 'typescript');
    expect([stats.count, stats.async]).toEqual([0, SYNC_STAT_MAX + 1]);
  });

  it('a request arriving while a pass runs gets the next pass, which sees what changed before it arrived', async () => {
    const f = join(dir, 'moving.ts');
    writeFileSync(f, 'one\n');
    let second: Promise<{ text: string }> | undefined;
    const docs = new Documents(
      () => {
        // The first pass has read the file and is still running: the file changes, a request arrives.
        if (second) return;
        writeFileSync(f, 'two, longer\n');
        second = docs.sync(f, 'typescript');
      },
      () => {},
    );
    expect((await docs.sync(f, 'typescript')).text).toBe('one\n');
    expect((await second!).text).toBe('two, longer\n');
  });

  it('a file rewritten with the same text is not re-sent (no didChange, the diagnostics wait not restarted)', async () => {
    const f = join(dir, 'restored.ts');
    writeFileSync(f, 'export const x = 1;\n');
    const restarted: string[] = [];
    const sent: string[] = [];
    const docs = new Documents(
      (method) => sent.push(method),
      (p) => restarted.push(p),
    );
    await docs.sync(f, 'typescript');
    const later = Date.now() / 1000 + 60;
    writeFileSync(f, 'export const x = 1;\n');
    utimesSync(f, later, later); // a new mtime, as a restore or checkout gives
    const same = await docs.sync(f, 'typescript');
    expect(sent).toEqual(['textDocument/didOpen']);
    expect(restarted).toEqual([f]);
    expect(same.version).toBe(1);
    writeFileSync(f, 'export const x = 2;\n');
    utimesSync(f, later + 1, later + 1);
    const changed = await docs.sync(f, 'typescript');
    expect(sent).toEqual(['textDocument/didOpen', 'textDocument/didChange']);
    expect(restarted).toEqual([f, f]);
    expect([changed.version, changed.text]).toEqual([2, 'export const x = 2;\n']);
    await docs.sync(f, 'typescript'); // the new stat was kept: nothing sent
    expect(sent).toHaveLength(2);
  });

  it('a file that cannot be read fails its own requests only', async () => {
    const ok = join(dir, 'ok.ts');
    writeFileSync(ok, 'ok\n');
    const { docs } = documents();
    const [good, bad] = await Promise.allSettled([
      docs.sync(ok, 'typescript'),
      docs.sync(join(dir, 'missing.ts'), 'typescript'),
    ]);
    expect(good).toMatchObject({ status: 'fulfilled', value: { text: 'ok\n' } });
    expect(bad).toMatchObject({ status: 'rejected', reason: { name: 'LspFileError' } });
  });
});
