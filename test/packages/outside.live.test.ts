// Proof from outside: what users install, used where they use it. Every package is built and packed
// (scripts/build.ts packages --pack), the tarballs are installed into an empty project in the temp folder
// (which cannot resolve anything from this repository), the extension's .vsix is installed into the
// newest VS Code of the matrix with --install-extension, and there, as a user would:
// - a TypeScript client compiles under NodeNext (and type-checks under Bundler) and runs, a plain .mjs
//   client and a CommonJS require() run, all against our extension;
// - `npx idea-conformance` builds the fixture workspace and reports on the extension by URL and token,
//   with JUnit, its state and reports in the working directory;
// - `npx idea-server` serves a second fixture workspace with HOME empty, and `npx idea-conformance`
//   finds it through the registry alone and passes on all 13 topics;
// - `npx idea-spec diff 0.1.5 0.1.6` answers from the spec inside its package;
// - `npm ls --omit=dev` is clean and no tsx is installed.
// Figures (package sizes, install and first-report wall time) go to reports/packages.json.
import { execFileSync, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_USER_SETTINGS } from '../../conformance/launch';
import { TOPICS as CURRENT_TOPICS, CURRENT_VERSION } from '../../generated/current';
import { PROTOCOL_VERSION as NEWEST_RELEASED } from '../../generated/latest';
import { VERSIONS } from '../../generated/versions';
import { type LiveHost, launchHost, REPO_ROOT } from '../../livehost';
import { poll } from '../../runtime/poll';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { exited } from '../support/processes';

interface Artefact {
  name: string;
  file: string;
  size: number;
  unpackedSize?: number;
  files?: number;
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'extension', 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
  version: string;
};
const figures: Record<string, unknown> = {};
let base: string;
let project: string;
let artefacts: Artefact[];
let host: LiveHost | undefined;
let workspace: string;

/** A command run in the outside project, with nothing of this repository on its paths. */
function inProject(cmd: string, args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd: project,
    encoding: 'utf8',
    timeout: 240_000,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      ...env,
    },
  });
}
const out = (r: SpawnSyncReturns<string>) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`.slice(-4000);

/** Whether some process runs a script whose path ends with `suffix` (a shipped bundle in use). */
function runningScript(suffix: string): boolean {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .some((n) => {
      try {
        return readFileSync(`/proc/${n}/cmdline`, 'utf8')
          .split('\0')
          .some((a) => a.endsWith(suffix));
      } catch {
        return false; // gone meanwhile
      }
    });
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'idea-outside-'));
  const packs = join(base, 'packs');
  const json = join(base, 'packs.json');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'build.ts'), 'packages', '--pack', packs, '--json', json],
    { cwd: REPO_ROOT, stdio: 'pipe' },
  );
  artefacts = JSON.parse(readFileSync(json, 'utf8')) as Artefact[];
  project = join(base, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'outside', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  const tarballs = artefacts.filter((a) => a.file.endsWith('.tgz')).map((a) => a.file);
  const t0 = performance.now();
  const install = inProject('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs]);
  if (install.status !== 0) throw new Error(`npm install of the tarballs failed: ${out(install)}`);
  figures.installMs = Math.round(performance.now() - t0);
  // The compiler a TypeScript user brings along; a dev dependency, so `npm ls --omit=dev` leaves it out.
  const dev = inProject('npm', [
    'install',
    '--save-dev',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    'typescript@~5.9',
    '@types/node@^20',
  ]);
  if (dev.status !== 0) throw new Error(`npm install typescript failed: ${out(dev)}`);
  const ws = inProject('npx', ['--no-install', 'idea-conformance', 'workspace', 'ws']);
  if (ws.status !== 0) throw new Error(`idea-conformance workspace failed: ${out(ws)}`);
  workspace = join(project, 'ws');
  const vsix = artefacts.find((a) => a.file.endsWith('.vsix'))!.file;
  host = await launchHost({ workspace, vsix, vscode: 'newest', userSettings: HOST_USER_SETTINGS });
}, 400_000);

afterAll(async () => {
  await host?.close();
  if (artefacts) {
    mkdirSync(join(REPO_ROOT, 'reports'), { recursive: true });
    figures.packages = artefacts.map(({ name, size, unpackedSize, files }) => ({ name, size, unpackedSize, files }));
    writeFileSync(join(REPO_ROOT, 'reports', 'packages.json'), `${JSON.stringify(figures, null, 2)}\n`);
  }
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('the packages, installed from their tarballs into an empty project', () => {
  it('resolve nothing from the repository and need no tsx: npm ls --omit=dev is clean', () => {
    const ls = inProject('npm', ['ls', '--omit=dev', '--all']);
    expect(ls.status, out(ls)).toBe(0);
    expect(ls.stdout).not.toMatch(/extraneous|missing|invalid|UNMET (?!OPTIONAL)/); // ws's optional native add-ons may be absent
    for (const name of ['protocol', 'conformance', 'spec-tools', 'cli', 'mcp']) {
      const dir = join(project, 'node_modules', '@idea-kit', name);
      expect(lstatSync(dir).isSymbolicLink(), `${name} is a link, not an installed tarball`).toBe(false);
    }
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
    // What the packages depend on at run time: the protocol package's ws and ajv, nothing else.
    const deps = JSON.parse(inProject('npm', ['ls', '--omit=dev', '--all', '--json']).stdout) as {
      dependencies: Record<string, { dependencies?: Record<string, unknown> }>;
    };
    expect(Object.keys(deps.dependencies['@idea-kit/protocol']!.dependencies ?? {}).sort()).toEqual(['ajv', 'ws']);
  });

  it('pass npm publish --dry-run', () => {
    const r = spawnSync('npm', ['publish', '--dry-run', '--workspaces'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, out(r)).toBe(0);
    for (const name of ['protocol', 'conformance', 'spec-tools', 'cli', 'mcp'])
      expect(r.stdout).toContain(`+ @idea-kit/${name}@`);
    // The only complaints allowed: a dry run is not logged in to the registry, and the private
    // workspaces the bins bundle (the spec library, the result text) are not published.
    const privateSkipped = /Skipping workspace @idea-kit\/(spec-lib|result-text|livehost), marked as private/;
    expect(
      r.stderr
        .split('\n')
        .filter(
          (l) =>
            /^npm (warn|error|ERR)/i.test(l) &&
            !/requires you to be logged in|Unknown (user|env) config/.test(l) &&
            !privateSkipped.test(l),
        ),
    ).toEqual([]);
  });

  it('ship no tests, bench or CI files', () => {
    for (const name of ['protocol', 'conformance', 'spec-tools', 'cli', 'mcp']) {
      const files = inProject('find', [join('node_modules', '@idea-kit', name), '-type', 'f'])
        .stdout.split('\n')
        .filter(Boolean);
      expect(
        files.filter((f) => /\/(test|tests|bench|\.ci|node_modules)\/|\.test\.|\.ts$(?<!\.d\.ts)/.test(f)),
        name,
      ).toEqual([]);
      expect(
        files.some((f) => f.endsWith('/LICENSE')),
        `${name} has a LICENSE`,
      ).toBe(true);
      expect(
        files.some((f) => f.endsWith('/README.md')),
        `${name} has a README`,
      ).toBe(true);
    }
  });
});

describe('@idea-kit/protocol from outside, against our extension installed from the .vsix', () => {
  const env = () => ({ IDEA_URL: host!.url, IDEA_TOKEN: host!.token });

  it('the .vsix is installed as a real extension folder, not a link to the source tree', () => {
    const exts = join(host!.runDir, 'exts');
    const folder = readdirSync(exts).find((n) =>
      n.startsWith(`${manifest.publisher}.${manifest.name}-${manifest.version}`),
    );
    expect(folder, `installed extensions: ${readdirSync(exts).join(', ')}`).toBeDefined();
    expect(lstatSync(join(exts, folder!)).isSymbolicLink()).toBe(false);
    expect(existsSync(join(exts, folder!, 'dist', 'extension.cjs'))).toBe(true);
    // The regex worker and the process spawner ship beside it, and the spawner runs from there (the
    // extension forks it at activation; git and rg start in it).
    expect(existsSync(join(exts, folder!, 'dist', 'regex-worker.cjs'))).toBe(true);
    expect(existsSync(join(exts, folder!, 'dist', 'spawner.cjs'))).toBe(true);
    expect(runningScript(`${folder}/dist/spawner.cjs`)).toBe(true);
    expect(existsSync(join(exts, folder!, 'src'))).toBe(false); // only the bundles ship
    expect(host!.build.name).toBe('newest');
  });

  it('a TypeScript client and server compile under NodeNext (strict, library checks on) and run', () => {
    writeFileSync(
      join(project, 'client.mts'),
      `
import { connect, IdeaProtocolError, type EditFindResult } from "@idea-kit/protocol/v0.1.6";
import { TOPICS as OLD_TOPICS } from "@idea-kit/protocol/v0.1.2/topics";
import { VERSIONS } from "@idea-kit/protocol/versions";
import findParams from "@idea-kit/protocol/schemas/v0.1.6/topics/edit-find.params.schema.json" with { type: "json" };

const client = await connect({ url: process.env.IDEA_URL!, token: process.env.IDEA_TOKEN!, validate: true });
const found: EditFindResult = await client.editFind({ pattern: "Geometric shapes" });
let refused = "";
try {
  await client.navSymbols({ filePath: "/etc/hostname" });
} catch (e) {
  if (e instanceof IdeaProtocolError) refused = e.code;
}
await client.close();
console.log(JSON.stringify({ version: client.handshake.version, matches: found.totalCount, refused, oldTopics: Object.keys(OLD_TOPICS).length, versions: VERSIONS.length, schema: findParams.$id }));
`,
    );
    // A server of one's own, as packages/protocol/README.md shows it: the session and the ws binding.
    writeFileSync(
      join(project, 'server.mts'),
      `
import { connect, ServerSession, ProtocolError, type Handlers } from "@idea-kit/protocol/v0.1.6";
import { startWebSocketServer } from "@idea-kit/protocol/runtime/ws-server";

const handlers: Partial<Handlers> = {
  async fsFindFiles({ query, maxResults }) {
    if (query === "") throw new ProtocolError("INVALID_REQUEST", "empty query");
    return { files: [{ fileName: query + ".ts", filePath: "/ws/" + query + ".ts", relativePath: query + ".ts" }], totalCount: Math.min(1, maxResults) };
  },
};
const server = await startWebSocketServer({
  host: "127.0.0.1", port: 0,
  createSession: (io) => new ServerSession({
    handlers, auth: { required: true, token: "s3cret-token" }, workspaces: () => ["/ws"],
    send: (frame) => io.send(frame), close: (code, reason) => io.close(code, reason),
    admit: () => io.admit(),
  }),
});
const client = await connect({ url: "ws://127.0.0.1:" + server.port, token: "s3cret-token", validate: true });
const found = await client.fsFindFiles({ query: "shapes" });
const codes: string[] = [];
for (const call of [() => client.fsFindFiles({ query: "" }), () => client.editFind({ pattern: "x" })]) {
  await call().catch((e: { code: string }) => codes.push(e.code));
}
console.log(JSON.stringify({ capabilities: client.handshake.capabilities, found: found.files[0]?.filePath, codes }));
await client.close();
await server.close();
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          skipLibCheck: false,
          resolveJsonModule: true,
          outDir: 'out',
          types: ['node'],
        },
        files: ['client.mts', 'server.mts'],
      }),
    );
    const tsc = inProject('npx', ['--no-install', 'tsc', '-p', '.']);
    expect(tsc.status, out(tsc)).toBe(0);
    const own = inProject(process.execPath, [join('out', 'server.mjs')]);
    expect(own.status, out(own)).toBe(0);
    expect(JSON.parse(own.stdout)).toEqual({
      capabilities: ['/app/vscode/fs/findFiles'],
      found: '/ws/shapes.ts',
      codes: ['INVALID_REQUEST', 'UNKNOWN_TOPIC'],
    });
    const run = inProject(process.execPath, [join('out', 'client.mjs')], env());
    expect(run.status, out(run)).toBe(0);
    const r = JSON.parse(run.stdout) as Record<string, unknown>;
    // A v0.1.6 client of the extension, which serves CURRENT_VERSION: the handshake's version is the
    // server's, every other answer is v0.1.6's (the client validates every frame against v0.1.6).
    expect(r).toMatchObject({
      version: CURRENT_VERSION,
      refused: 'INVALID_REQUEST',
      oldTopics: 6,
      versions: VERSIONS.length,
    });
    expect(r.matches).toBeGreaterThan(0);
    expect(r.schema).toMatch(/edit-find\.params/);
  });

  it('the same client and server type-check under Bundler resolution', () => {
    writeFileSync(
      join(project, 'tsconfig.bundler.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'ESNext',
          moduleResolution: 'Bundler',
          target: 'ES2022',
          strict: true,
          skipLibCheck: false,
          resolveJsonModule: true,
          noEmit: true,
          types: ['node'],
        },
        files: ['client.mts', 'server.mts'],
      }),
    );
    const tsc = inProject('npx', ['--no-install', 'tsc', '-p', 'tsconfig.bundler.json']);
    expect(tsc.status, out(tsc)).toBe(0);
  });

  it('a plain .mjs client (the package root is the newest released version) and a CommonJS require() run', () => {
    writeFileSync(
      join(project, 'client.mjs'),
      `
import { connect, PROTOCOL_VERSION } from "@idea-kit/protocol";
const client = await connect({ url: process.env.IDEA_URL, token: process.env.IDEA_TOKEN });
const files = await client.fsFindFiles({ query: "shapes" });
await client.close();
console.log(JSON.stringify({ PROTOCOL_VERSION, files: files.files.map((f) => f.filePath) }));
`,
    );
    const mjs = inProject(process.execPath, ['client.mjs'], env());
    expect(mjs.status, out(mjs)).toBe(0);
    const r = JSON.parse(mjs.stdout) as { PROTOCOL_VERSION: string; files: string[] };
    // The newest version in spec/releases.json (0.1.7 since its release), never a draft.
    expect(r.PROTOCOL_VERSION).toBe(NEWEST_RELEASED);
    expect(r.files.some((f) => f.endsWith('shapes.ts'))).toBe(true);
    writeFileSync(
      join(project, 'client.cjs'),
      `
const { connect, TOPICS } = require("@idea-kit/protocol/v0.1.6");
connect({ url: process.env.IDEA_URL, token: process.env.IDEA_TOKEN }).then(async (c) => {
  console.log(JSON.stringify({ topics: Object.keys(TOPICS).length, capabilities: c.handshake.capabilities.length }));
  await c.close();
});
`,
    );
    const cjs = inProject(process.execPath, ['--no-warnings', 'client.cjs'], env());
    expect(cjs.status, out(cjs)).toBe(0);
    // A v0.1.6 client (13 topics) of a server that serves CURRENT_VERSION's.
    expect(JSON.parse(cjs.stdout)).toEqual({ topics: 13, capabilities: CURRENT_TOPICS.length });
  });
});

describe('the bins from outside', () => {
  it('npx idea-conformance reports on the extension by URL and token, with JUnit, state in the working directory', () => {
    const t0 = performance.now();
    const r = inProject(
      'npx',
      [
        '--no-install',
        'idea-conformance',
        'run',
        '--url',
        host!.url,
        '--workspace',
        'ws',
        '--reporter',
        'console',
        '--reporter',
        'junit',
        '--reporter',
        'json',
      ],
      { IDEA_TOKEN: host!.token },
    );
    figures.firstReportMs = Math.round(performance.now() - t0);
    figures.installPlusFirstReportMs = (figures.installMs as number) + (figures.firstReportMs as number);
    expect(r.status, out(r)).toBe(0);
    // Every topic of the version the extension serves (the count follows the served version).
    expect(r.stdout).toMatch(/(?<!not )conformant on (\d+) of \1 topics/);
    const xml = readFileSync(join(project, 'conformance.xml'), 'utf8');
    const suites = /<testsuites[^>]*\btests="(\d+)"[^>]*\bfailures="(\d+)"/.exec(xml);
    expect(suites, xml.slice(0, 400)).not.toBeNull();
    expect(Number(suites![1])).toBeGreaterThan(150);
    expect(Number(suites![2])).toBe(0);
    expect(existsSync(join(project, '.idea-conformance', 'last-run.json'))).toBe(true);
    expect(`${r.stdout}${r.stderr}`).not.toContain(host!.token);
    // Clause links point at the package's own copy of the protocol text.
    const json = JSON.parse(readFileSync(join(project, 'conformance.json'), 'utf8')) as {
      cases: { clauseLink: string }[];
    };
    const doc = join(project, 'node_modules', '@idea-kit', 'conformance', 'dist', 'protocol.md');
    expect(json.cases[0]!.clauseLink).toMatch(new RegExp(`^${escapeRegExp(doc)}#clause-[a-z]+\\d+$`));
    expect(readFileSync(doc, 'utf8')).toContain(`id="${json.cases[0]!.clauseLink.split('#')[1]}"`);
  });

  it('npx idea-server serves a workspace with no VS Code around, and npx idea-conformance passes against it', async () => {
    // Its own fixture workspace, HOME and registry: only the registry entry leads the suite to it.
    const ws = inProject('npx', ['--no-install', 'idea-conformance', 'workspace', 'ws-server']);
    expect(ws.status, out(ws)).toBe(0);
    const home = join(base, 'server-home');
    const registry = join(base, 'server-registry');
    mkdirSync(home);
    const env = { HOME: home, IDEA_REGISTRY_DIR: registry };
    const server = spawn('npx', ['--no-install', 'idea-server', '--workspace', 'ws-server', '--port', '0'], {
      cwd: project,
      env: { PATH: process.env.PATH!, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true, // npx runs the bin in a child: the whole group is stopped below
    });
    let log = '';
    server.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
    });
    try {
      const ready = await poll(() => /ready in \d+ ms/.test(log) || server.exitCode !== null || undefined, {
        timeoutMs: 60_000,
      });
      expect(ready && server.exitCode === null, log).toBe(true);
      const r = inProject(
        'npx',
        ['--no-install', 'idea-conformance', 'run', '--workspace', 'ws-server', '--reporter', 'console'],
        env,
      );
      expect(r.status, `${out(r)}\n${log}`).toBe(0);
      // Conformant on what it serves: every topic but the editor's own (it has no editor).
      const scope = /(?<!not )conformant on (\d+) of (\d+) topics/.exec(r.stdout);
      expect(scope, r.stdout).not.toBeNull();
      expect(Number(scope![2]) - Number(scope![1])).toBeLessThanOrEqual(2);
      // The regex worker, the process spawner and the language server resolve from the installed package.
      expect(log).not.toMatch(/Cannot find module|unavailable for typescript|started directly/);
      expect(runningScript('node_modules/@idea-kit/server/dist/spawner.cjs')).toBe(true);
    } finally {
      process.kill(-server.pid!, 'SIGTERM');
      await exited(server, 'the installed idea-server after SIGTERM');
    }
  });

  it('npx idea-conformance run --launch says it needs a clone instead of failing obscurely', () => {
    const r = inProject('npx', ['--no-install', 'idea-conformance', 'run', '--launch']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--launch .* needs a clone of idea-kit/);
  });

  it('npx idea-spec diff 0.1.5 0.1.6 classifies the changes from the spec in its package', () => {
    const r = inProject('npx', ['--no-install', 'idea-spec', 'diff', '0.1.5', '0.1.6']);
    expect(r.status, out(r)).toBe(0);
    expect(r.stdout).toMatch(/^idea-spec diff 0\.1\.5 → 0\.1\.6: 0 ERR, \d+ WARN, \d+ INFO/);
    expect(r.stdout).toContain('/app/vscode/localhistory/list');
  });

  it('npx idea and npx idea-mcp start', () => {
    const idea = inProject('npx', ['--no-install', 'idea', '--help']);
    expect(idea.status, out(idea)).toBe(0);
    expect(idea.stdout).toContain(`IDEA protocol ${CURRENT_VERSION}`);
    const mcp = inProject('npx', ['--no-install', 'idea-mcp', '--help']);
    expect(mcp.status, out(mcp)).toBe(0);
    expect(mcp.stdout).toMatch(/usage: idea-mcp/);
  });
});
