// Released versions are frozen: the check passes on the repository and fails on any edit of a
// released folder (changed, added or removed file), on a release date kept outside releases.json,
// and on a release that the git history of releases.json shows was there and is gone or rewritten.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReleases, releasesPath } from '@idea-kit/spec-lib/releases';
import { hashFolder, specVersions } from '@idea-kit/spec-lib/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { bump } from '../../spec-tools/bump';
import { checkFrozen } from '../../spec-tools/frozen';
import { writeHistory } from '../../spec-tools/history/write';
import { draftWords, recordRelease } from '../../spec-tools/release';
import { checkReleasesHistory } from '../../spec-tools/release-history';
import { dropUnreleased, REPO, scratchRepo } from './scratch';

let scratch: ReturnType<typeof scratchRepo> | undefined;
afterEach(() => scratch?.dispose());

/** A copy of spec/ without unreleased versions: the release rules are tested from the newest released one. */
function scratchSpec(): string {
  scratch = scratchRepo(['spec']);
  dropUnreleased(scratch.root);
  return join(scratch.root, 'spec');
}
const versionsWithProblems = (spec: string) => checkFrozen(spec, { history: false }).problems.map((p) => p.version);
const editJson = (path: string, fn: (doc: any) => void) => {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  fn(doc);
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
};

describe('frozen released versions', () => {
  it('the repository matches spec/releases.json, which lists every version up to 0.1.6', () => {
    expect(checkFrozen(join(REPO, 'spec')).problems).toEqual([]);
    const released = readReleases(join(REPO, 'spec')).releases.map((r) => r.version);
    expect(released).toEqual(expect.arrayContaining(['0.1.0', '0.1.1', '0.1.2', '0.1.3', '0.1.4', '0.1.5', '0.1.6']));
  });

  it("the spec hash in a released version's generated headers is the sha256 it is frozen at", () => {
    for (const r of readReleases(join(REPO, 'spec')).releases) {
      const header = readFileSync(join(REPO, 'generated', `v${r.version}`, 'topics.ts'), 'utf8').split('\n')[0]!;
      expect(header, r.version).toContain(`(spec hash sha256:${r.sha256})`);
    }
  });

  it('an edited schema of a released version fails the check, naming the version and the way out', () => {
    const spec = scratchSpec();
    const file = join(spec, 'v0.1.3', 'messages', 'handshake-request.schema.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"type"', '"kind"'));
    const { problems } = checkFrozen(spec, { history: false });
    expect(problems.map((p) => p.version)).toEqual(['0.1.3']);
    expect(problems[0]!.message).toContain('changed after its release');
    expect(problems[0]!.message).toContain('idea-spec amend 0.1.3');
  });

  it('an added or removed file fails it too; a whitespace-only CRLF checkout does not', () => {
    const spec = scratchSpec();
    writeFileSync(join(spec, 'v0.1.2', 'topics', 'extra.params.schema.json'), '{}\n');
    rmSync(join(spec, 'v0.1.4', 'topics', 'fs-findfiles.result.schema.json'));
    const crlf = join(spec, 'v0.1.0', 'index.json');
    writeFileSync(crlf, readFileSync(crlf, 'utf8').replace(/\n/g, '\r\n'));
    expect(versionsWithProblems(spec)).toEqual(['0.1.2', '0.1.4']);
  });

  it('a missing released folder fails it', () => {
    const spec = scratchSpec();
    rmSync(join(spec, 'v0.1.1'), { recursive: true });
    expect(checkFrozen(spec, { history: false }).problems.map((p) => p.message)).toEqual([
      'released version folder spec/v0.1.1 is missing',
    ]);
  });

  it('a release date outside releases.json fails it: on an unreleased version, or disagreeing with it', () => {
    const spec = scratchSpec();
    editJson(join(spec, 'v0.1.2', 'index.json'), (d) => {
      d.released = '2026-03-09';
    });
    expect(checkFrozen(spec, { history: false }).problems.map((p) => p.message)).toEqual([
      expect.stringContaining('changed after its release'),
      'spec/v0.1.2/index.json says released "2026-03-09", spec/releases.json 2026-03-02',
    ]);
  });

  it('derive-history leaves released folders alone unless forced, and then rewrites them identically', () => {
    const spec = scratchSpec();
    const before = hashFolder(join(spec, 'v0.1.3'));
    writeFileSync(join(spec, 'v0.1.3', 'stray.json'), '{}\n');
    expect(writeHistory(spec)).toContain('skip v0.1.3: released (frozen); --force rewrites it');
    expect(versionsWithProblems(spec)).toEqual(['0.1.3']);
    expect(writeHistory(spec, { force: true })).toContain('wrote spec/v0.1.3');
    expect(hashFolder(join(spec, 'v0.1.3'))).toBe(before);
    expect(versionsWithProblems(spec)).toEqual([]);
  });
});

describe('idea-spec release', () => {
  async function unreleased(): Promise<{ spec: string; v: string }> {
    const spec = scratchSpec();
    // force: the repository's newest folder may itself be a draft (v0.1.7 is); what is tested is the
    // release of a fresh one.
    const { version } = await bump(scratch!.root, { codegen: false, force: true });
    return { spec, v: version };
  }

  it("records the date (default today) and hash, and needs the version's SUMMARY.md first", async () => {
    const { spec, v } = await unreleased();
    expect(() => recordRelease(spec, v)).toThrow(
      new RegExp(`spec/v${v.replace(/\./g, '\\.')}/SUMMARY\\.md is missing or empty`),
    );
    writeFileSync(join(spec, `v${v}`, 'SUMMARY.md'), 'Nothing new on the wire.\n');
    expect(() => recordRelease(spec, v, { date: '2026-13-45' })).toThrow(/not a date/);
    const entry = recordRelease(spec, v);
    expect(entry).toEqual({
      version: v,
      released: new Date().toISOString().slice(0, 10),
      sha256: hashFolder(join(spec, `v${v}`)),
    });
    expect(checkFrozen(spec, { history: false }).problems).toEqual([]);
  });

  it('never records a released version again: a changed folder is corrected with amend only', async () => {
    const { spec, v } = await unreleased();
    writeFileSync(join(spec, `v${v}`, 'SUMMARY.md'), 'Nothing new on the wire.\n');
    recordRelease(spec, v, { date: '2026-04-01' });
    expect(() => recordRelease(spec, v)).toThrow(/already released \(2026-04-01\)$/);
    appendFileSync(join(spec, `v${v}`, 'index.json'), ' ');
    expect(versionsWithProblems(spec)).toEqual([v]);
    expect(() => recordRelease(spec, v)).toThrow(/with other contents: .*idea-spec amend/);
  });

  it('refuses a version the spec lint (which codegen runs) refuses', async () => {
    const { spec, v } = await unreleased();
    writeFileSync(join(spec, `v${v}`, 'SUMMARY.md'), 'x\n');
    editJson(join(spec, `v${v}`, 'topics', 'edit-find.params.schema.json'), (d) => {
      delete d.examples;
    });
    expect(() => recordRelease(spec, v)).toThrow(
      /spec lint: 1 problem\(s\)\n.*edit-find\.params\.schema\.json#\/examples: \[examples-count\]/,
    );
    expect(readReleases(spec).releases.map((r) => r.version)).not.toContain(v);
  });

  it('refuses a version whose index.json carries a date of its own', async () => {
    const { spec, v } = await unreleased();
    writeFileSync(join(spec, `v${v}`, 'SUMMARY.md'), 'x\n');
    editJson(join(spec, `v${v}`, 'index.json'), (d) => {
      d.released = '2026-04-01';
    });
    expect(() => recordRelease(spec, v)).toThrow(/index\.json has "released": remove it/);
    expect(checkFrozen(spec, { history: false }).problems.map((p) => p.message)).toEqual([
      `spec/v${v}/index.json says released "2026-04-01", but release dates live in spec/releases.json only: remove it (idea-spec release records the date)`,
    ]);
  });

  it('refuses a version whose index.json description calls it a draft, naming the file and the words', async () => {
    // As the v0.1.8 draft opened.
    const draft = 'IDEA protocol v0.1.8: a draft (not released), additive over v0.1.7: code named by symbol.';
    expect(draftWords(draft)).toEqual(['draft', 'not released']);
    const { spec, v } = await unreleased();
    writeFileSync(join(spec, `v${v}`, 'SUMMARY.md'), 'x\n');
    const index = join(spec, `v${v}`, 'index.json');
    editJson(index, (d) => {
      d.description = draft;
    });
    expect(() => recordRelease(spec, v)).toThrow(
      `spec/v${v}/index.json: its description calls the version a draft ("draft", "not released"): say what the released version is first`,
    );
    editJson(index, (d) => {
      d.description = 'IDEA protocol, not yet released: Unreleased work (a pre-release).';
    });
    expect(() => recordRelease(spec, v)).toThrow(/\("not yet released", "Unreleased", "pre-release"\)/);
    expect(readReleases(spec).releases.map((r) => r.version)).not.toContain(v);
    // JSON Schema's dialect and the handshake's field are not the version calling itself a draft.
    editJson(index, (d) => {
      d.description =
        'Schemas are JSON Schema draft 2020-12 (not draft-07); a server of an unpublished version says `draft`: true.';
    });
    expect(recordRelease(spec, v).version).toBe(v);
  });
});

describe('the git history of spec/releases.json', () => {
  const git = (cwd: string, ...args: string[]) => {
    const r = spawnSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  function committedSpec(): string {
    const spec = scratchSpec();
    git(scratch!.root, 'init', '-q');
    git(scratch!.root, 'add', 'spec');
    git(scratch!.root, 'commit', '-q', '-m', 'spec');
    return spec;
  }
  const history = (spec: string) => checkReleasesHistory(spec, readReleases(spec));

  it('outside git the check says it was skipped', () => {
    const spec = scratchSpec();
    expect(checkFrozen(spec)).toEqual({
      problems: [],
      notes: ['spec/releases.json history: check skipped (not a git checkout)'],
    });
  });

  it('a committed release can never disappear, even with its folder gone too', () => {
    const spec = committedSpec();
    expect(checkFrozen(spec)).toEqual({
      problems: [],
      notes: ['spec/releases.json history: 1 committed version(s) checked'],
    });
    editJson(releasesPath(spec), (d) => {
      d.releases = d.releases.filter((r: any) => r.version !== '0.1.5');
    });
    const { problems } = history(spec);
    expect(problems.map((p) => p.version)).toEqual(['0.1.5']);
    expect(problems[0]!.message).toMatch(
      /^0\.1\.5 was released \(spec\/releases\.json in commit [0-9a-f]{10}\) and its entry is gone/,
    );
    // Committing the removal does not make it right: every committed version is checked.
    git(scratch!.root, 'commit', '-qam', 'drop 0.1.5');
    rmSync(join(spec, 'v0.1.5'), { recursive: true });
    expect(history(spec).problems.map((p) => p.version)).toEqual(['0.1.5']);
    expect(specVersions(spec)).not.toContain('0.1.5');
  });

  it('a hash or date rewritten without an amendment fails, naming the version', () => {
    const spec = committedSpec();
    const file = join(spec, 'v0.1.2', 'defs.schema.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Shared definitions', 'The shared definitions'));
    editJson(releasesPath(spec), (d) => {
      const r = d.releases.find((x: any) => x.version === '0.1.2');
      r.sha256 = hashFolder(join(spec, 'v0.1.2'));
      d.releases.find((x: any) => x.version === '0.1.3').released = '2026-03-03';
    });
    const messages = history(spec).problems.map((p) => p.message);
    expect(messages).toEqual([
      expect.stringMatching(/^0\.1\.2 was released with sha256 [0-9a-f]{64} .*without an amendment recording it/),
      expect.stringMatching(/^0\.1\.3's release date changed from 2026-03-02 .* to 2026-03-03/),
    ]);
  });

  it('amendments are never changed, removed or reordered; those of a merged branch may interleave', () => {
    const spec = committedSpec();
    const amend = (reason: string, prev: string) => ({ date: '2026-11-24', reason, previousSha256: prev });
    const a = amend('first', 'a'.repeat(64));
    const b = amend('second', 'b'.repeat(64));
    editJson(releasesPath(spec), (d) => {
      d.releases.find((x: any) => x.version === '0.1.2').amendments = [a, b];
    });
    git(scratch!.root, 'commit', '-qam', 'two amendments');
    expect(history(spec).problems).toEqual([]);
    const set = (list: unknown[]) =>
      editJson(releasesPath(spec), (d) => {
        d.releases.find((x: any) => x.version === '0.1.2').amendments = list;
      });
    set([amend('from another branch', 'c'.repeat(64)), a, amend('also merged', 'd'.repeat(64)), b]);
    expect(history(spec).problems).toEqual([]);
    for (const bad of [[a], [b, a], [a, { ...b, reason: 'second, reworded' }]]) {
      set(bad);
      expect(history(spec).problems.map((p) => p.message)).toEqual([
        expect.stringMatching(
          /^0\.1\.2's amendments \(.*\) were rewritten: an amendment is never changed, removed or reordered$/,
        ),
      ]);
    }
  });
});
