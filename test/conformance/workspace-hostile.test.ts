// The runner resets the fixture workspace with git after destructive cases, in a folder the server
// under test can write, .git/ included. Nothing a server plants there may run on the runner's machine:
// not a hook, fsmonitor, a clean/smudge filter, textconv, diff.external or an included config file.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildFixtureWorkspace,
  resetFixtureWorkspace,
  resetFixtureWorkspaceDetailed,
} from '../../conformance/workspace';

const tmp = mkdtempSync(join(tmpdir(), 'idea-fixture-hostile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function plant(dir: string, marker: string): void {
  const prog = join(tmp, 'evil.sh');
  writeFileSync(prog, `#!/bin/sh\necho "$0 $*" >> ${marker}\ncat\n`);
  chmodSync(prog, 0o755);
  const included = join(tmp, 'included.config');
  writeFileSync(included, `[core]\n\tfsmonitor = ${prog}\n`);
  writeFileSync(
    join(dir, '.git', 'config'),
    [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tbare = false',
      `\tfsmonitor = ${prog}`,
      `\thooksPath = ${join(dir, '.git', 'hooks')}`,
      '[filter "evil"]',
      `\tclean = ${prog}`,
      `\tsmudge = ${prog}`,
      '\trequired = true',
      '[diff "evil"]',
      `\ttextconv = ${prog}`,
      '[diff]',
      `\texternal = ${prog}`,
      '[include]',
      `\tpath = ${included}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, '.git', 'info', 'attributes'), '* filter=evil diff=evil\n');
  for (const hook of ['post-checkout', 'reference-transaction', 'pre-commit', 'post-index-change']) {
    writeFileSync(join(dir, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`);
    chmodSync(join(dir, '.git', 'hooks', hook), 0o755);
  }
}

describe('resetting a fixture workspace a hostile server wrote into', () => {
  it('runs nothing the server planted in .git and still restores the files', () => {
    const { dir } = buildFixtureWorkspace(join(tmp, 'ws'));
    const file = join(dir, 'src', 'shapes.ts');
    const original = readFileSync(file, 'utf8');
    mkdirSync(join(dir, '.git', 'info'), { recursive: true });
    const marker = join(tmp, 'ran');
    plant(dir, marker);
    writeFileSync(file, 'changed by a destructive case\n');
    // An untracked file: git decides (clean), so the reset runs git, not only the file-level fast path.
    writeFileSync(join(dir, 'stray.txt'), 'x');
    expect(resetFixtureWorkspaceDetailed(dir).via).toBe('git');
    expect(existsSync(join(dir, 'stray.txt'))).toBe(false);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(readFileSync(join(dir, '.git', 'config'), 'utf8')).not.toContain('evil');
  });

  it('a .git/config symlinked elsewhere is replaced, never written through', () => {
    const { dir } = buildFixtureWorkspace(join(tmp, 'ws2'));
    const victim = join(tmp, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    rmSync(join(dir, '.git', 'config'));
    symlinkSync(victim, join(dir, '.git', 'config'));
    writeFileSync(join(dir, 'src', 'shapes.ts'), 'changed\n');
    expect(resetFixtureWorkspace(dir)).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(dir, '.git', 'config')).isSymbolicLink()).toBe(false);
  });
});
