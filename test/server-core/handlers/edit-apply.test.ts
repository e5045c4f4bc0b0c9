// clause T52, H21, H22: edit/apply through a session of the served version (params checked, results
// validated against their schemas) over a stand-in host: changes applied in order, each seeing the
// earlier ones; guards, overlaps, protected and outside paths, unsaved editors, missing and existing
// files, text that is not UTF-8 and the bounds refused with the change's index, its file and the reason,
// nothing written; line breaks in the file's style; a dry run answers the same and writes nothing.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_EDITS_PER_FILE, MAX_WRITE_BYTES } from '../../../server-core/write/workspace-edit';
import { type AnswerFrame, coreSession } from '../core-session';
import { type FakeHost, fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-edit-apply-'));
const ws = join(root, 'ws');
const outside = join(root, 'outside');
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const A = 'export const a = 1;\nexport const b = 2;\n';
let host: FakeHost;
let ask: (topic: string, params: object) => Promise<AnswerFrame>;

beforeEach(() => {
  for (const d of [ws, outside, join(root, 'state'), join(root, 'History')])
    rmSync(d, { recursive: true, force: true });
  mkdirSync(join(ws, 'src', 'lib'), { recursive: true });
  mkdirSync(join(ws, '.git'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'a.ts'), A);
  writeFileSync(join(ws, 'src', 'lib', 'one.ts'), 'one\n');
  writeFileSync(join(ws, 'src', 'lib', 'two.ts'), 'two\n');
  chmodSync(join(ws, 'src', 'lib', 'two.ts'), 0o600);
  writeFileSync(join(ws, '.git', 'config'), '[core]\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  host = fakeHost(root);
  ({ ask } = coreSession(host));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const read = (rel: string) => readFileSync(join(ws, rel), 'utf8');
/** Every path under the workspace with its content: what "nothing was changed" compares. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) {
        out[`${p}/`] = '';
        walk(p);
      } else out[p] = readFileSync(p, 'latin1');
    }
  };
  walk(ws);
  return out;
}
const range = (line: number, character: number, endLine: number, endCharacter: number, newText: string) => ({
  line,
  character,
  endLine,
  endCharacter,
  newText,
});
const apply = (changes: object[], extra: object = {}) => ask('edit/apply', { changes, ...extra });
type Files = { change: string; filePath: string; newFilePath?: string; diff: string }[];
const filesOf = (a: AnswerFrame) => a.result!.files as Files;

/** Wants a refusal with `code` whose message matches `why`, and the workspace exactly as before. */
async function refused(changes: object[], why: RegExp, code = 'INVALID_REQUEST', extra: object = {}) {
  const before = snapshot();
  for (const dryRun of [true, false]) {
    const answer = await apply(changes, { ...extra, dryRun });
    expect(answer.error, `dryRun ${dryRun}: ${JSON.stringify(answer.result)}`).toMatchObject({ code });
    expect(answer.error!.message).toMatch(why);
    expect(answer.error!.message).toMatch(/nothing was changed/);
  }
  expect(snapshot()).toEqual(before);
  expect(existsSync(join(root, 'state', 'transactions'))).toBe(false);
}

describe('edit/apply: range edits', () => {
  it('applies the edits of a file at once, answers diff and sha256s, and keeps the transaction', async () => {
    const { result, error } = await apply([
      {
        kind: 'edit',
        filePath: 'a.ts',
        sha256: sha(A),
        edits: [range(1, 17, 1, 18, '20'), range(0, 17, 0, 18, '10'), range(0, 0, 0, 0, '// one\n')],
      },
    ]);
    expect(error).toBeUndefined();
    const after = '// one\nexport const a = 10;\nexport const b = 20;\n';
    expect(read('a.ts')).toBe(after);
    expect(result).toMatchObject({
      dryRun: false,
      transactionId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
      changedFiles: [join(ws, 'a.ts')],
      editCount: 3,
      files: [
        {
          filePath: join(ws, 'a.ts'),
          change: 'edited',
          sha256Before: sha(A),
          sha256After: sha(after),
          diff: [
            '--- a/a.ts',
            '+++ b/a.ts',
            '@@ -1,2 +1,3 @@',
            '-export const a = 1;',
            '-export const b = 2;',
            '+// one',
            '+export const a = 10;',
            '+export const b = 20;',
            '',
          ].join('\n'),
        },
      ],
    });
    expect(readdirSync(join(root, 'state', 'transactions'))).toEqual([result!.transactionId]);
  });

  it('a dry run answers the same and writes nothing', async () => {
    const changes = [{ kind: 'edit', filePath: 'a.ts', edits: [range(0, 17, 0, 18, '10')] }];
    const before = snapshot();
    const dry = (await apply(changes, { dryRun: true })).result!;
    expect(snapshot()).toEqual(before);
    expect(dry).toMatchObject({ dryRun: true, changedFiles: [], editCount: 1 });
    expect(dry.transactionId).toBeUndefined();
    const real = (await apply(changes)).result!;
    expect(real.files).toEqual(dry.files);
  });

  it('two insertions at one position are applied in their order; an insertion where a replacement starts goes first', async () => {
    await apply([
      {
        kind: 'edit',
        filePath: 'a.ts',
        edits: [range(0, 0, 0, 6, 'EXPORT'), range(0, 0, 0, 0, '1'), range(0, 0, 0, 0, '2')],
      },
    ]);
    expect(read('a.ts')).toBe(`12EXPORT const a = 1;\nexport const b = 2;\n`);
  });

  it("writes new text's line breaks in the file's style (CRLF stays CRLF) and keeps a byte order mark", async () => {
    writeFileSync(join(ws, 'crlf.ts'), '\ufeffa\r\nb\r\n');
    await apply([{ kind: 'edit', filePath: 'crlf.ts', edits: [range(1, 0, 1, 1, 'x\ny\r\nz')] }]);
    expect(readFileSync(join(ws, 'crlf.ts'), 'utf8')).toBe('\ufeffa\r\nx\r\ny\r\nz\r\n');
  });

  it('refuses a stale guard, naming the change, the file and both sha256s', async () => {
    const changes = [
      { kind: 'edit', filePath: 'src/lib/one.ts', edits: [range(0, 0, 0, 0, 'x')] },
      { kind: 'edit', filePath: 'a.ts', sha256: sha('other'), edits: [range(0, 0, 0, 0, 'x')] },
    ];
    await refused(
      changes,
      new RegExp(`^change 1 \\(edit .*a\\.ts\\): its sha256 guard ${sha('other')} .*\\(${sha(A)}\\)`),
    );
  });

  it('refuses overlapping edits, naming both', async () => {
    await refused(
      [{ kind: 'edit', filePath: 'a.ts', edits: [range(0, 0, 0, 10, 'x'), range(0, 5, 0, 12, 'y')] }],
      /change 0 \(edit .*a\.ts\): edit 1: it overlaps edit 0 \(0:0-0:10 and 0:5-0:12\)/,
    );
  });

  it('refuses a position past its line or the file (a client says exactly where)', async () => {
    await refused(
      [{ kind: 'edit', filePath: 'a.ts', edits: [range(0, 0, 0, 99, 'x')] }],
      /edit 0: its end character 99 is past the end of line 0 \(19 characters\)/,
    );
    await refused(
      [{ kind: 'edit', filePath: 'a.ts', edits: [range(7, 0, 7, 0, 'x')] }],
      /edit 0: its start line 7 is past the file's last line \(2\)/,
    );
    await refused([{ kind: 'edit', filePath: 'a.ts', edits: [range(1, 3, 0, 0, 'x')] }], /ends before it starts/);
  });

  it('refuses a file that is not UTF-8 text, a missing file and a folder', async () => {
    writeFileSync(join(ws, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    await refused([{ kind: 'edit', filePath: 'bin.dat', edits: [range(0, 0, 0, 0, 'x')] }], /not UTF-8 text/);
    await refused([{ kind: 'edit', filePath: 'nope.ts', edits: [range(0, 0, 0, 0, 'x')] }], /does not exist/);
    await refused([{ kind: 'edit', filePath: 'src', edits: [range(0, 0, 0, 0, 'x')] }], /it is a folder/);
  });

  // clause H21: the bound on edits per file.
  it(`refuses more than ${MAX_EDITS_PER_FILE} edits of one file, across changes`, async () => {
    const edits = (n: number) => Array.from({ length: n }, () => range(0, 0, 0, 0, 'x'));
    await refused(
      [
        { kind: 'edit', filePath: 'a.ts', edits: edits(MAX_EDITS_PER_FILE) },
        { kind: 'edit', filePath: 'a.ts', edits: edits(1) },
      ],
      /change 1 .*more than the server's bound of 10000 edits of one file/,
    );
  });

  it('refuses a file with unsaved editor changes (INVALID_REQUEST), on a dry run too', async () => {
    host.docs.push({ path: join(ws, 'a.ts'), text: 'unsaved', dirty: true });
    await refused(
      [{ kind: 'edit', filePath: 'a.ts', edits: [range(0, 0, 0, 0, 'x')] }],
      /unsaved changes in the editor/,
    );
  });
});

// clause H22: no write outside the workspace folders, never through a link out of them.
describe('edit/apply: where it may write (H11, H22)', () => {
  it('refuses protected paths, paths outside every folder and links out of the workspace', async () => {
    symlinkSync(outside, join(ws, 'out'));
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'secret-link.txt'));
    const cases: [object, RegExp][] = [
      [{ kind: 'edit', filePath: '.git/config', edits: [range(0, 0, 0, 0, 'x')] }, /inside a \.git folder/],
      [{ kind: 'create', filePath: '.vscode/settings.json', content: '{}' }, /inside a \.vscode folder/],
      [{ kind: 'create', filePath: 'team.code-workspace', content: '{}' }, /code-workspace/],
      [{ kind: 'rename', filePath: 'a.ts', newFilePath: '.git/hooks/pre-commit' }, /inside a \.git folder/],
      [{ kind: 'delete', filePath: '.git', recursive: true }, /inside a \.git folder/],
      [{ kind: 'create', filePath: join(outside, 'x.ts') }, /outside every open workspace folder/],
      [{ kind: 'create', filePath: '../outside/x.ts' }, /outside every open workspace folder/],
      [{ kind: 'create', filePath: 'out/x.ts' }, /outside every open workspace folder/],
      [
        { kind: 'edit', filePath: 'secret-link.txt', edits: [range(0, 0, 0, 0, 'x')] },
        /outside every open workspace folder/,
      ],
      [{ kind: 'delete', filePath: ws, recursive: true }, /workspace folder itself/],
      [{ kind: 'rename', filePath: 'src', newFilePath: 'lib/.git' }, /inside a \.git folder/],
    ];
    for (const [change, why] of cases) await refused([change], why);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('never renames or deletes a symbolic link, nor moves a folder holding one', async () => {
    symlinkSync(join(ws, 'a.ts'), join(ws, 'link.ts'));
    await refused([{ kind: 'delete', filePath: 'link.ts' }], /symbolic link/);
    await refused([{ kind: 'rename', filePath: 'link.ts', newFilePath: 'moved.ts' }], /symbolic link/);
    symlinkSync(join(ws, 'a.ts'), join(ws, 'src', 'lib', 'inner-link.ts'));
    await refused([{ kind: 'rename', filePath: 'src', newFilePath: 'source' }], /inner-link\.ts.*symbolic link/);
    await refused([{ kind: 'delete', filePath: 'src', recursive: true }], /symbolic link/);
  });

  it("refuses an edit reading more than the server's bound of bytes", async () => {
    truncateSync(join(ws, 'src', 'lib', 'one.ts'), MAX_WRITE_BYTES + 1); // sparse: nothing is read
    await refused([{ kind: 'delete', filePath: 'src', recursive: true }], /more than the server's bound of 64 MB/);
  });
});

describe('edit/apply: files and folders', () => {
  it('each change sees the earlier ones: create, edit it, rename it, then edit it at its new place', async () => {
    const { result, error } = await apply([
      { kind: 'create', filePath: 'new/deep/util.ts', content: 'export const one = 1;\n' },
      { kind: 'edit', filePath: 'new/deep/util.ts', edits: [range(0, 19, 0, 20, '11')] },
      { kind: 'rename', filePath: 'new/deep/util.ts', newFilePath: 'src/util.ts' },
      { kind: 'edit', filePath: 'src/util.ts', edits: [range(0, 0, 0, 0, '// moved\n')] },
      { kind: 'createFolder', filePath: 'empty/too' },
    ]);
    expect(error).toBeUndefined();
    expect(read('src/util.ts')).toBe('// moved\nexport const one = 11;\n');
    // The folders the file was created in stay: a change made them.
    expect(readdirSync(join(ws, 'new', 'deep'))).toEqual([]);
    expect(statSync(join(ws, 'empty', 'too')).isDirectory()).toBe(true);
    expect(result!.files).toEqual([
      expect.objectContaining({
        filePath: join(ws, 'src', 'util.ts'),
        change: 'created',
        sha256Before: null,
        diff: expect.stringMatching(/^--- \/dev\/null\n\+\+\+ b\/src\/util\.ts\n/),
      }),
      expect.objectContaining({ filePath: join(ws, 'new'), change: 'createdFolder' }),
      expect.objectContaining({ filePath: join(ws, 'new', 'deep'), change: 'createdFolder' }),
      expect.objectContaining({ filePath: join(ws, 'empty'), change: 'createdFolder' }),
      expect.objectContaining({ filePath: join(ws, 'empty', 'too'), change: 'createdFolder' }),
    ]);
    expect(result!.editCount).toBe(2);
  });

  it('moves a folder with its files and modes; the answer has the folder and each file renamed', async () => {
    const answer = await apply([{ kind: 'rename', filePath: 'src/lib', newFilePath: 'pkg/lib' }]);
    const { result } = answer;
    expect(existsSync(join(ws, 'src', 'lib'))).toBe(false);
    expect(read('pkg/lib/one.ts')).toBe('one\n');
    expect(statSync(join(ws, 'pkg', 'lib', 'two.ts')).mode & 0o777).toBe(0o600);
    expect(filesOf(answer).map((f) => [f.change, f.filePath, f.newFilePath])).toEqual([
      ['renamed', join(ws, 'src', 'lib', 'one.ts'), join(ws, 'pkg', 'lib', 'one.ts')],
      ['renamed', join(ws, 'src', 'lib', 'two.ts'), join(ws, 'pkg', 'lib', 'two.ts')],
      ['renamed', join(ws, 'src', 'lib'), join(ws, 'pkg', 'lib')],
      ['createdFolder', join(ws, 'pkg'), undefined],
    ]);
    expect(filesOf(answer)[0]!.diff).toBe('');
    expect((result!.changedFiles as string[]).sort()).toEqual(
      [
        join(ws, 'pkg'),
        join(ws, 'pkg', 'lib'),
        join(ws, 'pkg', 'lib', 'one.ts'),
        join(ws, 'pkg', 'lib', 'two.ts'),
        join(ws, 'src', 'lib'),
        join(ws, 'src', 'lib', 'one.ts'),
        join(ws, 'src', 'lib', 'two.ts'),
      ].sort(),
    );
  });

  it('deletes a file (guarded) and a folder with contents only when recursive', async () => {
    await refused([{ kind: 'delete', filePath: 'src/lib' }], /not empty \(recursive deletes it/);
    await refused([{ kind: 'delete', filePath: 'a.ts', sha256: sha('x') }], /sha256 guard/);
    const answer = await apply([
      { kind: 'delete', filePath: 'a.ts', sha256: sha(A) },
      { kind: 'delete', filePath: 'src', recursive: true },
    ]);
    expect(readdirSync(ws).sort()).toEqual(['.git']);
    expect(filesOf(answer).map((f) => [f.change, f.filePath])).toEqual([
      ['deleted', join(ws, 'a.ts')],
      ['deleted', join(ws, 'src', 'lib', 'one.ts')],
      ['deleted', join(ws, 'src', 'lib', 'two.ts')],
      ['deletedFolder', join(ws, 'src', 'lib')],
      ['deletedFolder', join(ws, 'src')],
    ]);
    expect(filesOf(answer)[0]).toMatchObject({ sha256Before: sha(A), sha256After: null });
  });

  it('existing and missing paths: refused unless overwrite, ignoreIfExists or ignoreIfNotExists says otherwise', async () => {
    await refused([{ kind: 'create', filePath: 'a.ts' }], /the file exists \(overwrite replaces it/);
    await refused([{ kind: 'createFolder', filePath: 'src' }], /the folder exists/);
    await refused([{ kind: 'rename', filePath: 'src/lib/one.ts', newFilePath: 'a.ts' }], /a\.ts exists/);
    await refused([{ kind: 'delete', filePath: 'nope.ts' }], /does not exist/);
    await refused([{ kind: 'rename', filePath: 'nope.ts', newFilePath: 'x.ts' }], /does not exist/);
    await refused([{ kind: 'rename', filePath: 'src', newFilePath: 'src/lib/inner' }], /is inside it/);
    await refused(
      [{ kind: 'rename', filePath: 'src/lib', newFilePath: 'a.ts', overwrite: true }],
      /overwrite replaces a file only/,
    );
    await refused([{ kind: 'create', filePath: 'a.ts/x.ts' }], /a\.ts is a file, not a folder/);
    await refused(
      [
        { kind: 'delete', filePath: 'a.ts' },
        { kind: 'createFolder', filePath: 'a.ts' },
      ],
      /turn a file into a folder/,
    );
    const { result } = await apply([
      { kind: 'create', filePath: 'a.ts', ignoreIfExists: true, content: 'ignored' },
      { kind: 'createFolder', filePath: 'src', ignoreIfExists: true },
      { kind: 'delete', filePath: 'nope.ts', ignoreIfNotExists: true },
      { kind: 'rename', filePath: 'src/lib/one.ts', newFilePath: 'a.ts', ignoreIfExists: true },
    ]);
    expect(result).toMatchObject({ files: [], changedFiles: [], editCount: 0 });
    expect(result!.transactionId).toBeUndefined();
    await apply([
      { kind: 'create', filePath: 'src/lib/one.ts', overwrite: true, content: 'ONE\n' },
      { kind: 'rename', filePath: 'src/lib/one.ts', newFilePath: 'a.ts', overwrite: true },
    ]);
    expect(read('a.ts')).toBe('ONE\n');
    expect(existsSync(join(ws, 'src', 'lib', 'one.ts'))).toBe(false);
  });

  it('a change refused late leaves the earlier ones unwritten too', async () => {
    await refused(
      [
        { kind: 'create', filePath: 'fresh.ts', content: 'x' },
        { kind: 'delete', filePath: 'src', recursive: true },
        { kind: 'edit', filePath: 'a.ts', sha256: sha('stale'), edits: [range(0, 0, 0, 0, 'x')] },
      ],
      /^change 2 /,
    );
  });

  it('params the schema refuses change nothing (no kind, too many changes, a bad guard)', async () => {
    const before = snapshot();
    for (const changes of [
      [{ filePath: 'a.ts' }],
      Array.from({ length: 2001 }, () => ({ kind: 'createFolder', filePath: 'x', ignoreIfExists: true })),
      [{ kind: 'edit', filePath: 'a.ts', sha256: 'ABC', edits: [range(0, 0, 0, 0, 'x')] }],
      [{ kind: 'edit', filePath: 'a.ts', edits: [] }],
      [{ kind: 'edit', filePath: 'a.ts', edits: [{ ...range(0, 0, 0, 0, 'x'), namePath: 'a', operation: 'delete' }] }],
    ])
      expect((await apply(changes)).error?.code).toBe('INVALID_REQUEST');
    expect(snapshot()).toEqual(before);
  });
});
