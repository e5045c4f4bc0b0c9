// `idea-spec bump` to the latest version + 1 (computed at run time) in a scratch copy of the
// repository: the copy differs from the latest version only in its identity ($ids, index version;
// `since` values and every other string equal to the old version survive), carries no release
// date, gets its generated code (which typechecks and passes the drift check) and a changelog entry.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReleases } from '@idea-kit/spec-lib/releases';
import { isObject, type Json, listFiles, loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { nextPatch } from '@idea-kit/spec-lib/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../spec-tools/cli';
import { diffVersions } from '../../spec-tools/diff/version-diff';
import { isReleased, writeReleases } from '../../spec-tools/frozen';
import { dropUnreleased, scratchRepo } from './scratch';

let scratch: ReturnType<typeof scratchRepo>;
let spec = '';
let latest = '';
let next = '';
let bumpOut = '';
let bumpCode = -1;

const node = (root: string, args: string[]) =>
  spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 240_000 });
const tsx = (root: string, args: string[]) =>
  node(root, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), ...args]);
const read = (dir: string, rel: string) => JSON.parse(readFileSync(join(dir, rel), 'utf8')) as Json;

beforeAll(async () => {
  scratch = scratchRepo(
    ['spec', 'codegen', 'runtime', 'generated', 'spec-tools', 'docs/CHANGELOG.md', 'package.json', 'tsconfig.json'],
    { nodeModules: true },
  );
  // Bumped from the newest released version: a draft in progress is not part of the copy.
  dropUnreleased(scratch.root);
  spec = join(scratch.root, 'spec');
  latest = specVersions(spec).at(-1)!;
  next = nextPatch(latest);
  // The workflow bumps from a released version; a repository whose newest version is still in the
  // works is bumped with --force here (what is tested is the copy, not the release rule).
  const force = isReleased(spec, latest) ? [] : ['--force'];
  bumpCode = await main(['bump', '--root', scratch.root, ...force], (s) => {
    bumpOut += s;
  });
}, 300_000);
afterAll(() => scratch?.dispose());

describe('idea-spec bump (latest + 1) in a scratch copy', () => {
  it('creates the next patch version from the latest', () => {
    expect(bumpCode).toBe(0);
    expect(bumpOut).toContain(`created spec/v${next} from v${latest}`);
  });

  it('changes only the version identity: $ids and the index version; no release date, no summary', () => {
    const from = join(spec, `v${latest}`);
    const to = join(spec, `v${next}`);
    expect(listFiles(to)).toEqual(listFiles(from).filter((f) => f !== 'SUMMARY.md'));
    for (const rel of listFiles(to)) {
      const want = read(from, rel);
      if (!isObject(want)) throw new Error(`${rel} is not an object`);
      if (rel === 'index.json') {
        want.version = next;
        delete want.released;
      } else if (rel.endsWith('.schema.json')) want.$id = `https://idea-protocol.invalid/spec/v${next}/${rel}`;
      // other files (clauses.json) are copied as they are
      expect(read(to, rel), rel).toEqual(want);
    }
    expect(read(to, 'index.json')).not.toHaveProperty('released');
  });

  it('keeps every since value, so the new version is no change against the latest', () => {
    const a = loadSpec(spec, latest);
    const b = loadSpec(spec, next);
    const since = (s: typeof a) => [...s.index.topics, ...s.index.errorCodes].map((e) => e.since);
    expect(since(b)).toEqual(since(a));
    expect(since(b)).toContain(latest); // the topics new in the latest version keep "since <latest>"
    expect(diffVersions(a, b).changes).toEqual([]);
  });

  it('lists the other mentions of the old version for review instead of rewriting them', () => {
    expect(bumpOut).toContain(`still naming ${latest} (review by hand; since values are left alone on purpose):`);
    expect(bumpOut).toContain(`spec/v${next}/index.json /description: "IDEA protocol v${latest}`);
    expect(bumpOut).toContain(`spec/v${next}/messages/handshake-success.schema.json /examples/0/version: "${latest}"`);
    expect(bumpOut).not.toMatch(/\/since:/);
  });

  it("generates its code: the new protocol version, the topics' own since", () => {
    const gen = join(scratch.root, 'generated', `v${next}`);
    expect(readFileSync(join(gen, 'topics.ts'), 'utf8')).toMatch(
      new RegExp(`PROTOCOL_VERSION\\b[^\\n]*"${next.replace(/\./g, '\\.')}"`),
    );
    const client = readFileSync(join(gen, 'client.ts'), 'utf8');
    for (const t of loadSpec(spec, latest).index.topics) expect(client).toContain(`\`${t.topic}\` (since ${t.since})`);
    expect(
      readFileSync(join(gen, 'protocol.md'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('# ')),
    ).toBe(`# IDEA protocol ${next}`);
    expect(existsSync(join(gen, 'manifest.json'))).toBe(true);
  });

  it('the generated code typechecks', () => {
    writeFileSync(
      join(scratch.root, 'tsconfig.bump.json'),
      JSON.stringify({ extends: './tsconfig.json', include: [`generated/v${next}`, 'runtime'] }),
    );
    const r = node(scratch.root, [
      join(scratch.root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.bump.json',
      '--noEmit',
    ]);
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  }, 240_000);

  it('passes the codegen drift check for every version', () => {
    const r = tsx(scratch.root, ['codegen/src/cli.ts', '--check']);
    expect(r.stderr).not.toMatch(/out of date/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`v${next}`);
  }, 240_000);

  it('drafts its changelog entry (unreleased, summary still to write, no wire change) and the changelog check passes', async () => {
    const text = readFileSync(join(scratch.root, 'docs', 'CHANGELOG.md'), 'utf8');
    const entry = text.slice(text.indexOf(`## ${next}`), text.indexOf(`## ${latest}`));
    expect(entry).toBe(
      `## ${next} — unreleased\n\n_No summary yet: write spec/v${next}/SUMMARY.md before the release._\n\nNo wire changes.\n\n`,
    );
    expect(await main(['changelog', '--check', '--root', scratch.root], () => {})).toBe(0);
  });

  it('refuses to bump again from the unreleased new version, or to an older version', async () => {
    await expect(main(['bump', '--root', scratch.root, '--no-codegen'], () => {})).rejects.toThrow(/not released yet/);
    await expect(main(['bump', latest, '--root', scratch.root, '--no-codegen', '--force'], () => {})).rejects.toThrow(
      /not newer/,
    );
  });

  it('refuses to recreate a version that spec/releases.json records (a release is never undone)', async () => {
    const other = scratchRepo(['spec']);
    try {
      const otherSpec = join(other.root, 'spec');
      const entries = readReleases(otherSpec).releases;
      writeReleases(otherSpec, {
        description: '',
        releases: [...entries, { ...entries.at(-1)!, version: nextPatch(specVersions(otherSpec).at(-1)!) }],
      });
      await expect(main(['bump', '--root', other.root, '--no-codegen', '--force'], () => {})).rejects.toThrow(
        /is in spec\/releases\.json already/,
      );
    } finally {
      other.dispose();
    }
  });
});
