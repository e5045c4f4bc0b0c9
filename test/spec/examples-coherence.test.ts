// The v0.1.6 examples feed docs and generated tests, so they must also agree with the facts the
// schemas cannot express (counts, hash prefixes, UTC labels, parent-first symbols).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, SPEC_ROOT } from './load-spec';

const dir = join(SPEC_ROOT, 'v0.1.6');
const examples = (slug: string): any[] => readJson(join(dir, `topics/${slug}.result.schema.json`)).examples;
const utcLabel = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe('v0.1.6 result examples are coherent', () => {
  it.each([
    ['edit-find', 'matches'],
    ['nav-references', 'locations'],
    ['diag-list', 'diagnostics'],
    ['nav-symbols', 'symbols'],
    ['history-list', 'entries'],
    ['fs-findfiles', 'files'],
    ['localhistory-list', 'entries'],
  ])('%s: totalCount equals the number of %s', (slug, key) => {
    for (const ex of examples(slug)) expect(ex.totalCount).toBe(ex[key].length);
  });

  it("history/list: shortHash is the hash's prefix and indices count up from 1, newest first", () => {
    for (const ex of examples('history-list')) {
      ex.entries.forEach((e: any, i: number) => {
        expect(e.hash.startsWith(e.shortHash)).toBe(true);
        expect(e.index).toBe(i + 1);
      });
    }
  });

  it('localhistory/list: timestampLabel is the UTC rendering of timestamp, newest first', () => {
    for (const ex of examples('localhistory-list')) {
      ex.entries.forEach((e: any, i: number) => {
        expect(e.timestampLabel).toBe(utcLabel(e.timestamp));
        if (i > 0) expect(e.timestamp).toBeLessThan(ex.entries[i - 1].timestamp);
      });
    }
  });

  it('nav/symbols: a containerName names a symbol listed before it', () => {
    for (const ex of examples('nav-symbols')) {
      ex.symbols.forEach((s: any, i: number) => {
        if (s.containerName !== null) expect(ex.symbols.slice(0, i).map((p: any) => p.name)).toContain(s.containerName);
      });
    }
  });

  it('fs/findFiles: fileName is the last segment of relativePath, and filePath ends with relativePath', () => {
    for (const ex of examples('fs-findfiles')) {
      for (const f of ex.files) {
        expect(f.relativePath.split('/').at(-1)).toBe(f.fileName);
        expect(f.filePath.endsWith(`/${f.relativePath}`)).toBe(true);
      }
    }
  });

  it('ranges end at or after their start', () => {
    for (const slug of ['nav-definition', 'nav-references', 'diag-list', 'nav-symbols']) {
      for (const ex of examples(slug)) {
        for (const r of ex.locations ?? ex.diagnostics ?? ex.symbols) {
          expect(
            r.endLine > r.line || (r.endLine === r.line && r.endCharacter >= r.character),
            `${slug}: ${JSON.stringify(r)}`,
          ).toBe(true);
        }
      }
    }
  });
});
