// idea-server's local history is VS Code's on-disk format in its own per-user folder: what the core's
// writer puts there (an entry per write, its content beside entries.json, the folder named by VS Code's
// hash of the file URI) is what VS Code's History reader expects, so VS Code can read idea-server's
// entries when --history-dir points at its User/History.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultHistoryDir, ensurePrivateDir } from '../../idea-server/src/history';
import { fileUriString, LocalHistory, vscodeStringHash } from '../../server-core/local-history';

const tmp = mkdtempSync(join(tmpdir(), 'idea-server-history-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("local history in idea-server's folder", () => {
  it('is written in VS Code format and read back, folder private', async () => {
    const home = ensurePrivateDir(defaultHistoryDir(join(tmp, 'home')));
    const file = join(tmp, 'ws', 'a b.ts');
    const store = new LocalHistory(home);
    const [entry] = await store.addEntries([
      {
        path: file,
        content: Buffer.from('before\n'),
        source: 'idea-server edit/replace',
        timestamp: 1_700_000_000_000,
      },
    ]);
    if (!entry) throw new Error('not added');
    const resource = fileUriString(file);
    expect(resource).toBe(`file://${join(tmp, 'ws')}/a%20b.ts`);
    const folder = join(home, vscodeStringHash(resource).toString(16));
    expect(readdirSync(home)).toEqual([vscodeStringHash(resource).toString(16)]);
    const listing = JSON.parse(readFileSync(join(folder, 'entries.json'), 'utf8'));
    expect(listing).toEqual({
      version: 1,
      resource,
      entries: [{ id: entry.id, source: 'idea-server edit/replace', timestamp: 1_700_000_000_000 }],
    });
    expect(entry.id).toMatch(/^[A-Za-z0-9]{4}\.ts$/);
    expect(readFileSync(join(folder, entry.id), 'utf8')).toBe('before\n');
    expect(new LocalHistory(home).list(file).map((e) => e.id)).toEqual([entry.id]);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });
});
