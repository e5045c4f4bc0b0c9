// Amending a released version (errata): the only way to change a frozen folder. The new hash is
// recorded with the old one and the reason; check-frozen then accepts the folder at its latest hash
// only; anything beyond annotations is refused unless --allow-semantic; the released contents to
// compare with are found in git by their recorded hash.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseOf } from '@idea-kit/spec-lib/releases';
import { hashFolder } from '@idea-kit/spec-lib/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { renderChangelog } from '../../spec-tools/changelog';
import { checkFrozen } from '../../spec-tools/frozen';
import { amendRelease } from '../../spec-tools/release';
import { scratchRepo } from './scratch';

let scratch: ReturnType<typeof scratchRepo> | undefined;
afterEach(() => scratch?.dispose());

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
};

/** A scratch spec/ committed to a fresh git repository. */
function committedSpec(opts: { git?: boolean } = {}): string {
  scratch = scratchRepo(['spec']);
  if (opts.git !== false) {
    git(scratch.root, 'init', '-q');
    git(scratch.root, 'add', 'spec');
    git(scratch.root, 'commit', '-q', '-m', 'spec');
  }
  return join(scratch.root, 'spec');
}

function edit(spec: string, rel: string, fn: (doc: any) => void): void {
  const path = join(spec, 'v0.1.6', rel);
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  fn(doc);
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
}

const correctText = (spec: string) => {
  edit(spec, 'index.json', (d) => {
    d.errorCodes.find((e: any) => e.code === 'INVALID_REQUEST').description += ' (corrected reading)';
  });
  edit(spec, 'topics/edit-find.params.schema.json', (d) => {
    d.properties.pattern.description = 'The text or regular expression to look for.';
    d.examples.push({ pattern: 'FIXME' });
  });
};

describe('idea-spec amend', () => {
  it('records a correction of the text: new hash, previous hash and reason kept; check-frozen passes, the changelog says so', () => {
    const spec = committedSpec();
    const before = releaseOf(spec, '0.1.6')!;
    correctText(spec);
    expect(checkFrozen(spec).problems.map((p) => p.version)).toEqual(['0.1.6']);
    const { entry } = amendRelease(spec, '0.1.6', {
      reason: 'INVALID_REQUEST: corrected adopted reading',
      date: '2026-11-24',
    });
    expect(entry).toEqual({
      ...before,
      sha256: hashFolder(join(spec, 'v0.1.6')),
      amendments: [
        ...(before.amendments ?? []),
        { date: '2026-11-24', reason: 'INVALID_REQUEST: corrected adopted reading', previousSha256: before.sha256 },
      ],
    });
    expect(releaseOf(spec, '0.1.6')).toEqual(entry);
    expect(checkFrozen(spec)).toEqual({
      problems: [],
      notes: ['spec/releases.json history: 1 committed version(s) checked'],
    });
    const changelog = renderChangelog(scratch!.root);
    expect(changelog.slice(changelog.indexOf('## 0.1.6'), changelog.indexOf('## 0.1.5'))).toContain(
      '- 2026-11-24: INVALID_REQUEST: corrected adopted reading',
    );
  });

  it('accepts the folder only at its latest recorded hash; a second amendment is appended', () => {
    const spec = committedSpec();
    correctText(spec);
    const first = amendRelease(spec, '0.1.6', { reason: 'first', date: '2026-11-24' }).entry;
    git(scratch!.root, 'commit', '-qam', 'amend 0.1.6');
    edit(spec, 'defs.schema.json', (d) => {
      d.description = 'Shared definitions.';
    });
    const second = amendRelease(spec, '0.1.6', { reason: 'second', date: '2026-11-25' }).entry;
    expect(second.amendments!.slice(-2).map((a) => [a.reason, a.previousSha256])).toEqual([
      ['first', first.amendments!.at(-1)!.previousSha256],
      ['second', first.sha256],
    ]);
    expect(checkFrozen(spec).problems).toEqual([]);
    // Back to the contents first released: a recorded hash, but not the latest one.
    git(scratch!.root, 'checkout', '-q', 'HEAD~1', '--', 'spec/v0.1.6');
    expect(hashFolder(join(spec, 'v0.1.6'))).toBe(first.amendments!.at(-1)!.previousSha256);
    expect(checkFrozen(spec).problems.map((p) => p.message)).toEqual([
      expect.stringContaining(`(amended ${second.amendments!.length}x; only the latest hash counts)`),
    ]);
  });

  it('refuses changes beyond annotations, naming them, unless --allow-semantic', () => {
    const spec = committedSpec();
    const recorded = releaseOf(spec, '0.1.6')!.amendments;
    correctText(spec);
    edit(spec, 'topics/history-list.params.schema.json', (d) => {
      d.properties.maxCount.minimum = 2;
    });
    writeFileSync(join(spec, 'v0.1.6', 'topics', 'notes.txt'), 'x\n');
    let message = '';
    try {
      amendRelease(spec, '0.1.6', { reason: 'sneaky' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('the amendment of v0.1.6 changes more than annotations');
    expect(message).toContain('file added: topics/notes.txt');
    expect(message).toContain(
      'topics/history-list.params.schema.json: changed beyond description/title/examples/$comment',
    );
    expect(message).toMatch(/ERR +topic \/app\/vscode\/history\/list params › maxCount/); // the diff engine's verdict
    expect(message).not.toContain('edit-find'); // the annotation edits are fine
    expect(releaseOf(spec, '0.1.6')!.amendments).toEqual(recorded); // nothing recorded
    const { entry } = amendRelease(spec, '0.1.6', { reason: 'deliberate', allowSemantic: true, date: '2026-11-24' });
    expect(entry.sha256).toBe(hashFolder(join(spec, 'v0.1.6')));
    expect(checkFrozen(spec).problems).toEqual([]);
  });

  it('refuses an annotation edit the spec lint refuses (a description naming another default)', () => {
    const spec = committedSpec();
    edit(spec, 'topics/edit-find.params.schema.json', (d) => {
      d.properties.isRegex.description = 'Whether pattern is a regular expression (default: true).';
    });
    const recorded = releaseOf(spec, '0.1.6')!.amendments;
    expect(() => amendRelease(spec, '0.1.6', { reason: 'typo' })).toThrow(/\[default-description\]/);
    expect(releaseOf(spec, '0.1.6')!.amendments).toEqual(recorded);
  });

  it('a SUMMARY.md may be added to a released version', () => {
    const spec = committedSpec();
    writeFileSync(join(spec, 'v0.1.6', 'SUMMARY.md'), 'Local history topics.\n');
    expect(amendRelease(spec, '0.1.6', { reason: 'summary written', date: '2026-11-24' }).entry.sha256).toBe(
      hashFolder(join(spec, 'v0.1.6')),
    );
  });

  it('says why it cannot amend: nothing changed, not released, no reason, released contents not in git', () => {
    const spec = committedSpec();
    expect(() => amendRelease(spec, '0.1.6', { reason: 'x' })).toThrow(
      /unchanged since its release .*nothing to amend/,
    );
    expect(() => amendRelease(spec, '0.1.6', { reason: '  ' })).toThrow(/amend needs --reason/);
    expect(() => amendRelease(spec, '0.2.0', { reason: 'x' })).toThrow(/v0\.2\.0 is not released/);
    scratch!.dispose();
    const loose = committedSpec({ git: false });
    correctText(loose);
    expect(() => amendRelease(loose, '0.1.6', { reason: 'x' })).toThrow(
      /no commit has spec\/v0\.1\.6 at its recorded sha256 .*--allow-semantic/,
    );
  });
});
