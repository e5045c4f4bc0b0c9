// The maintainer workflow of docs/maintainers.md, step by step, on a scratch copy of the repository
// (spec/, generated/, docs/, the codegen and spec-tools that run there, committed to its own git
// repository): bump → edit a schema → codegen → diff → changelog → summary → release → check-frozen
// → amend a description of the released version → serve it (spec/served.json + codegen: the
// extension, CLI, MCP server, conformance defaults and frame checks follow) → a second bump after the
// release; then the copy's own drift, frozen and changelog checks are green. Versions are computed at
// run time.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReleases, releaseOf } from '@idea-kit/spec-lib/releases';
import { loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { compareVersions, nextPatch } from '@idea-kit/spec-lib/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../spec-tools/cli';
import { dropUnreleased, REPO, scratchRepo } from './scratch';

let scratch: ReturnType<typeof scratchRepo>;
let root = '';
let spec = '';
let latest = '';
let v1 = '';
const started = Date.now();

async function idea(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main([...args, '--root', root], (s) => {
    out += s;
  });
  return { code, out };
}
const tsx = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
const git = (...args: string[]) => {
  const r = spawnSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
};
const text = (rel: string) => readFileSync(join(root, rel), 'utf8');
const editJson = (rel: string, fn: (doc: any) => void) => {
  const doc = JSON.parse(text(rel));
  fn(doc);
  writeFileSync(join(root, rel), `${JSON.stringify(doc, null, 2)}\n`);
};
/**
 * What the programs of the scratch copy serve and speak, read in one process there: the version the
 * extension's server session announces in a handshake, the CLI's version and the spec its bundle
 * embeds, the MCP tools listed without a window, the conformance defaults and the frame validators.
 */
function programs(): Record<string, any> {
  writeFileSync(
    join(root, 'probe.ts'),
    `
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { buildTarget } from './scripts/build';
import { ServerSession } from './extension/src/protocol';
import { FRAMES, PROTOCOL_VERSION as cli } from './cli/src/protocol';
import { toolsFor } from './mcp/src/tools';
import { DEFAULT_FIXTURES } from './conformance/lib/load';
import { CLAUSES, CLAUSES_JSON, PROTOCOL_MD } from './conformance/lib/clauses';
import { problemOf } from './runtime/frames';
const sent: string[] = [];
const session = new ServerSession({ handlers: {}, auth: { required: false }, workspaces: () => [], send: (f) => sent.push(f), close: () => {} });
session.onFrame(JSON.stringify({ type: 'handshake' }));
const bundle = await buildTarget('cli');
const find = (await toolsFor(undefined)).find((t) => t.name === 'edit_find')!;
console.log(JSON.stringify({
  served: JSON.parse(readFileSync('generated/current.ts', 'utf8').match(/CURRENT_VERSION = (".*")/)![1]),
  extension: JSON.parse(sent[0]!).version,
  cli,
  cliEmbedded: readFileSync(bundle, 'utf8').match(/\\{version:"([^"]*)",topics:/)?.[1] ?? null,
  cliFlag: execFileSync(process.execPath, [bundle, 'help', 'edit', 'find'], { encoding: 'utf8' }).includes('--max-results'),
  frames: FRAMES.version,
  framesProblem: problemOf(FRAMES.params.get('/app/vscode/edit/find')!, { pattern: 'x', maxResults: 0 }, 'params') ?? null,
  mcpMaxResults: 'maxResults' in (find.inputSchema.properties as object),
  conformance: { fixtures: relative('.', DEFAULT_FIXTURES), protocolMd: PROTOCOL_MD, clauses: CLAUSES_JSON, clauseCount: CLAUSES.size },
}));
`,
  );
  const r = tsx('probe.ts');
  if (r.status !== 0) throw new Error(`probe: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
const section = (changelog: string, version: string) => {
  const from = changelog.indexOf(`## ${version} — `);
  const to = changelog.indexOf('\n## ', from + 1);
  return changelog.slice(from, to < 0 ? undefined : to);
};

beforeAll(() => {
  scratch = scratchRepo(
    [
      'spec',
      'codegen',
      'runtime',
      'generated',
      'spec-tools',
      'extension/src',
      'server-core',
      'scripts',
      'LICENSE',
      'cli',
      'mcp/src',
      'conformance',
      'docs/CHANGELOG.md',
      'package.json',
      'tsconfig.json',
    ],
    { nodeModules: true },
  );
  root = scratch.root;
  cpSync(join(REPO, 'conformance', 'fixture.schema.json'), join(root, 'conformance', 'fixture.schema.json'));
  // The workflow starts from the newest released version: a draft in progress is not part of the copy.
  if (dropUnreleased(root).length > 0) {
    const r = tsx('codegen/src/cli.ts');
    if (r.status !== 0) throw new Error(r.stderr);
    const c = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'spec-tools/cli.ts', 'changelog', '--root', root],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    if (c.status !== 0) throw new Error(c.stderr);
  }
  writeFileSync(join(root, '.gitignore'), 'node_modules\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'scratch copy');
  spec = join(root, 'spec');
  latest = specVersions(spec).at(-1)!;
  v1 = nextPatch(latest);
}, 120_000);
afterAll(() => scratch?.dispose());

describe('the maintainer workflow on a scratch copy', () => {
  it('1. bump: the next version, generated, with a changelog draft', async () => {
    // A repository whose newest version is still in the works is bumped with --force here.
    const force = readReleases(spec).releases.some((r) => r.version === latest) ? [] : ['--force'];
    const { code, out } = await idea('bump', ...force);
    expect(code).toBe(0);
    expect(out).toContain(`created spec/v${v1} from v${latest}`);
    expect(out).toContain(`generated generated/v${v1}/`);
  }, 120_000);

  it('2-3. edit a schema of the new version, regenerate', () => {
    editJson(`spec/v${v1}/topics/edit-find.params.schema.json`, (d) => {
      d.properties.maxResults = { type: 'integer', minimum: 1, description: 'Stop after this many matches.' };
    });
    const r = tsx('codegen/src/cli.ts');
    expect(r.status, r.stderr).toBe(0);
    expect(text(`generated/v${v1}/types.ts`)).toMatch(/maxResults\?: number/);
    // A draft in spec/ is not served until spec/served.json says so.
    expect(programs()).toMatchObject({
      served: latest,
      extension: latest,
      cli: latest,
      cliEmbedded: latest,
      frames: latest,
      cliFlag: false,
      mcpMaxResults: false,
    });
  }, 120_000);

  it('4. diff: the edit alone, classified; the since values intact', async () => {
    const { code, out } = await idea('diff', latest, v1, '--format', 'json');
    expect(code).toBe(0);
    const report = JSON.parse(out) as { changes: { level: string; kind: string; location: string; path: string }[] };
    expect(report.changes.map((c) => `${c.level} ${c.location} ${c.path}`)).toEqual([
      'INFO topic /app/vscode/edit/find params maxResults',
    ]);
    const since = (v: string) => loadSpec(spec, v).index.topics.map((t) => t.since);
    expect(since(v1)).toEqual(since(latest));
  });

  it('5. changelog: unreleased, the summary still to write, the change listed', async () => {
    expect((await idea('changelog')).code).toBe(0);
    const entry = section(text('docs/CHANGELOG.md'), v1);
    expect(entry).toMatch(
      new RegExp(
        `^## ${v1.replace(/\./g, '\\.')} — unreleased\\n\\n_No summary yet: write spec/v${v1.replace(/\./g, '\\.')}/SUMMARY\\.md before the release\\._`,
      ),
    );
    expect(entry).toContain('maxResults');
    expect(text(`generated/v${v1}/protocol.md`)).toContain(`# IDEA protocol ${v1}\n`);
  });

  it('6-7. summary, release: the date goes to releases.json only; protocol.md and the changelog follow at once', async () => {
    writeFileSync(join(spec, `v${v1}`, 'SUMMARY.md'), 'edit/find takes `maxResults`.\n');
    const { code, out } = await idea('release', v1, '--date', '2026-12-01');
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^released ${v1.replace(/\./g, '\\.')} \\(2026-12-01\\) sha256 [0-9a-f]{64}\\n`));
    expect(releaseOf(spec, v1)).toMatchObject({ version: v1, released: '2026-12-01' });
    expect(loadSpec(spec, v1).index.released).toBeUndefined();
    expect(text(`generated/v${v1}/protocol.md`)).toContain(`# IDEA protocol ${v1} (2026-12-01)\n`);
    expect(section(text('docs/CHANGELOG.md'), v1)).toMatch(
      new RegExp(`^## ${v1.replace(/\./g, '\\.')} — 2026-12-01\\n\\nedit/find takes \`maxResults\`\\.\\n`),
    );
    expect((await idea('changelog', '--check')).code).toBe(0);
    // The fast drift check (manifests only) notices a release date the generated files do not show.
    expect(tsx('codegen/src/cli.ts', '--check').status).toBe(0);
    const releases = text('spec/releases.json');
    editJson('spec/releases.json', (d) => {
      d.releases.find((r: any) => r.version === v1).released = '2026-12-03';
    });
    const stale = tsx('codegen/src/cli.ts', '--check');
    writeFileSync(join(spec, 'releases.json'), releases);
    expect(stale.stderr).toContain(`differs: generated/v${v1}/protocol.md`);
    expect(stale.status).toBe(1);
    git('add', '-A');
    git('commit', '-q', '-m', `release ${v1}`);
  }, 120_000);

  it('8. check-frozen: green with the history of releases.json; an edit of the released folder is caught', async () => {
    expect(await idea('check-frozen')).toEqual({
      code: 0,
      out: 'spec/releases.json history: 2 committed version(s) checked\nreleased versions unchanged\n',
    });
    editJson(`spec/v${v1}/topics/edit-find.params.schema.json`, (d) => {
      d.properties.maxResults.description = 'Stop after this many matches (the rest are counted in totalCount).';
    });
    const frozen = await idea('check-frozen');
    expect(frozen.code).toBe(1);
    expect(frozen.out).toContain(`FROZEN spec/v${v1} changed after its release`);
  });

  it('9. amend: the corrected description is recorded, regenerated, and frozen again', async () => {
    const before = releaseOf(spec, v1)!.sha256;
    const { code, out } = await idea(
      'amend',
      v1,
      '--reason',
      'maxResults: say where the rest is counted',
      '--date',
      '2026-12-02',
    );
    expect(code).toBe(0);
    expect(out).toContain(`amended ${v1}: sha256 ${before} → `);
    expect(releaseOf(spec, v1)!.amendments).toEqual([
      { date: '2026-12-02', reason: 'maxResults: say where the rest is counted', previousSha256: before },
    ]);
    expect(text(`generated/v${v1}/protocol.md`)).toContain('the rest are counted in totalCount');
    expect(section(text('docs/CHANGELOG.md'), v1)).toContain('- 2026-12-02: maxResults: say where the rest is counted');
    expect((await idea('check-frozen')).code).toBe(0);
    git('add', '-A');
    git('commit', '-q', '-m', `amend ${v1}`);
  }, 120_000);

  it('10. serve it: one line and codegen, and every program follows', () => {
    editJson('spec/served.json', (d) => {
      d.version = v1;
    });
    const r = tsx('codegen/src/cli.ts');
    expect(r.status, r.stderr).toBe(0);
    const p = programs();
    expect(p).toMatchObject({ served: v1, extension: v1, cli: v1, cliEmbedded: v1, frames: v1 });
    // The edit of step 2 is what each program now holds: a flag, a tool's input, a frame check.
    expect(p.cliFlag).toBe(true);
    expect(p.mcpMaxResults).toBe(true);
    expect(p.framesProblem).toMatch(/maxResults/);
    // No cases are written for it yet: the suite runs the newest older version's (cumulative through `since`).
    const cases = readdirSync(join(root, 'conformance', 'fixtures'))
      .filter((f) => compareVersions(f, v1) < 0)
      .sort(compareVersions)
      .at(-1);
    expect(p.conformance).toEqual({
      fixtures: `conformance/fixtures/${cases}`,
      protocolMd: `generated/v${v1}/protocol.md`,
      clauses: `spec/v${v1}/clauses.json`,
      clauseCount: loadSpec(spec, v1).clauses.length,
    });
    git('add', '-A');
    git('commit', '-q', '-m', `serve ${v1}`);
  }, 120_000);

  it('11. the next version: a second bump after the release', async () => {
    const v2 = nextPatch(v1);
    const { code, out } = await idea('bump');
    expect(code).toBe(0);
    expect(out).toContain(`created spec/v${v2} from v${v1}`);
    const index = loadSpec(spec, v2).index;
    expect(index.released).toBeUndefined();
    expect(index.topics.map((t) => t.since)).toEqual(loadSpec(spec, v1).index.topics.map((t) => t.since));
    expect(section(text('docs/CHANGELOG.md'), v2)).toContain('No wire changes.');
  }, 120_000);

  it("12. the copy's own checks: codegen drift (full), check-frozen, changelog", async () => {
    const drift = tsx('codegen/src/cli.ts', '--check', '--full');
    expect(drift.stderr).toBe('');
    expect(drift.status).toBe(0);
    expect(drift.stdout).toContain(`v${nextPatch(v1)}`);
    expect((await idea('check-frozen')).code).toBe(0);
    expect((await idea('changelog', '--check')).code).toBe(0);
    console.log(`maintainer workflow on a scratch copy: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 120_000);
});
