// After a reset the runner waits until the server shows the restored files (edit/find), instead of a fixed
// sleep. The server here is an editor that notices disk changes late: it searches and replaces in its
// own copy of each file, reloaded from disk `lagMs` after the disk changed, and saves that copy on a
// replace. Without the wait the second of two back-to-back destructive cases meets the old copy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { FALLBACK_SETTLE_MS, runSuite } from '../../conformance/lib/run';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer, targetFor } from '../../conformance/lib/session';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import type { Handlers } from '../../generated/v0.1.6/server';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { globRe, startInTestServer, TEST_TOKEN, walk } from './in-test-server';

let tmp: string;
let n = 0;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-settle-'));
});
/** A fresh workspace per test: a stale copy saved over the reset must not leak into the next test. */
const freshWorkspace = () => buildFixtureWorkspace(join(tmp, `ws${n++}`)).dir;
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An editor's view of the workspace that follows the disk `lagMs` late. */
function laggingEditor(root: string, lagMs: number) {
  const view = new Map<string, string>();
  const disk = new Map<string, string>();
  const read = (rel: string) => {
    try {
      return readFileSync(join(root, rel), 'utf8');
    } catch {
      return '';
    }
  };
  const timer = setInterval(() => {
    for (const [rel, seen] of disk) {
      const now = read(rel);
      if (now === seen) continue;
      disk.set(rel, now);
      setTimeout(() => view.set(rel, now), lagMs);
    }
  }, 10);
  const text = (rel: string) => {
    if (!view.has(rel)) {
      const t = read(rel);
      view.set(rel, t);
      disk.set(rel, t);
    }
    return view.get(rel)!;
  };
  const regex = (p: { pattern: string; isRegex?: boolean; isCaseSensitive?: boolean }) =>
    new RegExp(p.isRegex ? p.pattern : escapeRegExp(p.pattern), p.isCaseSensitive ? 'g' : 'gi');
  const files = (include = '**/*') =>
    walk(root).filter((rel) => globRe(include).test(rel) && !rel.startsWith('node_modules/'));
  const handlers: Partial<Handlers> = {
    async editFind(p) {
      const matches = files(p.include).flatMap((rel) =>
        text(rel)
          .split('\n')
          .flatMap((lineText, line) =>
            [...lineText.matchAll(regex(p))].map((m) => ({
              filePath: join(root, rel),
              line,
              character: m.index!,
              lineText,
            })),
          ),
      );
      return { matches, totalCount: matches.length };
    },
    async editReplace(p) {
      let replacedCount = 0;
      const affectedFiles: string[] = [];
      for (const rel of files(p.include)) {
        const before = text(rel);
        const n = [...before.matchAll(regex(p))].length;
        if (!n) continue;
        const after = before.replace(regex(p), p.replacement);
        replacedCount += n;
        affectedFiles.push(join(root, rel));
        writeFileSync(join(root, rel), after); // the editor saves its copy
        view.set(rel, after);
        disk.set(rel, after);
      }
      return { replacedCount, affectedFiles };
    },
  };
  return { handlers, stop: () => clearInterval(timer) };
}

const all = loadCases();
const [caseSensitive] = selectCases(all, { ids: ['edit-replace/case-sensitive'] });
const [literal] = selectCases(all, { ids: ['edit-replace/literal'] }); // notes/journal.md, another file

async function twice(lagMs: number, settleTimeoutMs?: number, second = caseSensitive) {
  const ws = freshWorkspace();
  const editor = laggingEditor(ws, lagMs);
  const server = await startInTestServer(ws, {}, { handlers: editor.handlers });
  try {
    return await runAgainstServer({
      url: server.url,
      token: TEST_TOKEN,
      workspace: ws,
      cases: [caseSensitive!, second!],
      settleTimeoutMs,
    });
  } finally {
    editor.stop();
    await server.close();
  }
}

describe('waiting for the server after a reset', () => {
  it('waits until edit/find shows the restored file, so the next case meets it', async () => {
    const s = await twice(400);
    expect(s.results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(s.results[0]!.settleMs).toBeGreaterThanOrEqual(300);
    expect(s.warnings).toEqual([]);
  });

  it('without the wait the next case meets the stale copy (the wait is what makes it pass)', async () => {
    const s = await twice(400, 0);
    expect(s.results.map((r) => r.verdict)).toEqual(['pass', 'fail']);
  });

  it('gives up after the timeout with a warning naming what was still stale, and goes on', async () => {
    const s = await twice(1500, 100, literal);
    expect(s.results[0]!.settleMs).toBeLessThan(1000);
    expect(s.results[1]!.verdict).toBe('pass');
    expect(s.warnings.join('\n')).toMatch(
      /after the reset following edit-replace\/case-sensitive, the server did not show the restored files within 100 ms: .*text\/search\.txt line 1/,
    );
    // Given up once, not paid again for every reset: the next one (after the case on another file) gets the fixed wait.
    expect(s.results[1]!.settleMs).toBeGreaterThanOrEqual(FALLBACK_SETTLE_MS - 5);
    expect(s.results[1]!.settleMs).toBeLessThan(1000);
  });

  it('a server that shows the disk at once costs one probe, not a fixed wait', async () => {
    const s = await twice(0);
    expect(s.results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(s.results[0]!.settleMs).toBeLessThan(FALLBACK_SETTLE_MS);
  });

  it('a reset that does not say what it restored gets the fixed fallback wait', async () => {
    const ws = freshWorkspace();
    const editor = laggingEditor(ws, 0);
    const server = await startInTestServer(ws, {}, { handlers: editor.handlers });
    try {
      const s = await runSuite({
        target: targetFor(server.url, TEST_TOKEN, ws),
        cases: [caseSensitive!],
        reset: () => true,
      });
      expect(s.results[0]!.settleMs).toBeGreaterThanOrEqual(FALLBACK_SETTLE_MS - 5);
    } finally {
      editor.stop();
      await server.close();
    }
  });
});
