// Issue 30: serving a cloned repository runs nothing the repository chose. The workspace here is a
// trap: its node_modules/typescript/lib/tsserver.js (which typescript-language-server would pick,
// walking up from the workspace, when not given one), `git`, `rg` and language servers in
// node_modules/.bin and bin/ (which a relative PATH entry finds, children running in the workspace),
// a tsserver plugin its tsconfig names, and a .vscode/settings.json naming trap programs. Every trap appends to a marker file outside the
// workspace. `idea --headless` / `idea-mcp --headless` (serveIfNone) answer nav/hover, nav/definition,
// history and search normally on it and the marker never appears; with --trust-workspace the trap
// tsserver runs (so the check can fail).
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { serveIfNone } from '../../idea-server/src/headless';
import { ownTypeScript } from '../../idea-server/src/lsp/config';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';
import { poll } from '../../runtime/poll';

const SLOW = 180_000; // tsserver loads the project on the first request; the machine is shared
const REQUEST = { timeoutMs: 120_000 };

let tmp: string;
let ws: string;
let marker: string;
const savedPath = process.env.PATH;
const open: { client?: IdeaClient; served?: ServedWorkspace }[] = [];

function executable(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

function markerText(): string {
  return existsSync(marker) ? readFileSync(marker, 'utf8') : '';
}

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-untrusted-')));
  marker = join(tmp, 'trap-ran.txt');
  ws = join(tmp, 'ws');
  const ts = join(ws, 'node_modules', 'typescript');
  mkdirSync(join(ts, 'lib'), { recursive: true });
  writeFileSync(join(ts, 'package.json'), JSON.stringify({ name: 'typescript', version: '9.9.9' }));
  // A working tsserver that marks that it ran: the real one, loaded after the mark.
  writeFileSync(
    join(ts, 'lib', 'tsserver.js'),
    `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'workspace tsserver ' + process.pid + '\\n');\n` +
      `require(${JSON.stringify(ownTypeScript().tsserver)});\n`,
  );
  const trap = (name: string) => `#!/bin/sh\necho "${name} $0 $*" >> '${marker}'\n`;
  for (const dir of ['node_modules/.bin', 'bin', '.'])
    for (const name of ['git', 'rg', 'node', 'tsserver', 'typescript-language-server', 'idea-trap-ls'])
      executable(join(ws, dir, name), trap(name));
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(
    join(ws, '.vscode', 'settings.json'),
    JSON.stringify({
      'typescript.tsdk': join(ts, 'lib'),
      'typescript.tsserver.pluginPaths': [join(ws, 'bin')],
      'git.path': join(ws, 'bin', 'git'),
      'search.ripgrep.path': join(ws, 'bin', 'rg'),
      'eslint.nodePath': join(ws, 'bin'),
    }),
  );
  // A tsserver plugin the tsconfig names: tsserver loads it from the workspace only when given
  // --allowLocalPluginLoads (checked by hand: it then runs), which typescript-language-server does not pass.
  writeFileSync(
    join(ws, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, plugins: [{ name: 'trap-plugin' }] } }),
  );
  mkdirSync(join(ws, 'node_modules', 'trap-plugin'));
  writeFileSync(join(ws, 'node_modules', 'trap-plugin', 'package.json'), JSON.stringify({ name: 'trap-plugin' }));
  writeFileSync(
    join(ws, 'node_modules', 'trap-plugin', 'index.js'),
    `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'workspace tsserver plugin\\n');\n` +
      'module.exports = () => ({ create: (info) => info.languageService });\n',
  );
  // The traps are live: found the way exec finds a name through a relative PATH entry, or loaded,
  // they mark (then the marks are cleared for the tests).
  execFileSync('/bin/sh', ['-c', 'PATH=node_modules/.bin; git; rg; idea-trap-ls'], { cwd: ws });
  execFileSync(process.execPath, ['-e', `require(${JSON.stringify(join(ws, 'node_modules', 'trap-plugin'))})`]);
  expect(
    markerText()
      .split('\n')
      .map((l) => l.split(' ')[0]),
  ).toEqual(['git', 'rg', 'idea-trap-ls', 'workspace', '']);
  rmSync(marker);
  writeFileSync(
    join(ws, 'shapes.ts'),
    'export function unit(): number {\n  return 1;\n}\nexport const two = unit() + unit();\n',
  );
  execFileSync('git', ['-C', ws, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', ws, 'add', 'shapes.ts']);
  execFileSync('git', ['-C', ws, '-c', 'user.name=A', '-c', 'user.email=a@x.invalid', 'commit', '-q', '-m', 'one']);
});

afterEach(async () => {
  process.env.PATH = savedPath;
  rmSync(marker, { force: true }); // one test's trap must not fail the next
  for (const o of open.splice(0)) {
    await o.client?.close();
    await o.served?.close();
  }
}, 60_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** This process's environment with relative PATH entries first: what a careless shell profile leaves. */
function hostileEnv(): NodeJS.ProcessEnv {
  // git and rg are started by server-core from process.env; language servers from the env given.
  process.env.PATH = `node_modules/.bin:bin:.::${savedPath}`;
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(tmp, 'home'), IDEA_REGISTRY_DIR: join(tmp, 'registry') };
  delete env.IDEA_URL;
  delete env.IDEA_TOKEN;
  return env;
}

describe('a hostile workspace served headless', () => {
  it('answers nav/hover, nav/definition, history and search; nothing of the workspace runs', {
    timeout: SLOW,
  }, async () => {
    const logs: string[] = [];
    const h = await serveIfNone({ cwd: ws, env: hostileEnv(), register: false, log: (m) => logs.push(m) });
    expect(h.served, 'an in-process server (none served the folder)').toBeDefined();
    open.push({ served: h.served });
    const client = await connect({ url: h.endpoint.url, token: h.endpoint.token });
    open.push({ client });
    const file = join(ws, 'shapes.ts');

    // `unit` in `two = unit()`: hover shows its signature, definition goes to its declaration.
    const hover = await client.navHover({ filePath: file, line: 3, character: 20 }, REQUEST);
    expect(hover.contents.map((c) => c.value).join('\n')).toContain('function unit(): number');
    const def = await client.navDefinition({ filePath: file, line: 3, character: 20 }, REQUEST);
    expect(def.locations).toMatchObject([{ filePath: file, line: 0 }]);
    expect((await client.historyList({ filePath: file }, REQUEST)).entries.map((e) => e.message)).toEqual(['one']);
    expect((await client.editFind({ pattern: 'unit()', include: '*.ts' }, REQUEST)).totalCount).toBe(3);

    expect(markerText()).toBe('');
    expect(logs).toContain(
      `typescript: idea-server's own tsserver (${ownTypeScript().tsserver}, ${ownTypeScript().version}); the workspace's TypeScript is not run (--trust-workspace to allow)`,
    );
    expect(h.served!.ripgrep.path).not.toContain(ws);
  });

  it('a --lsp command found only through a relative PATH entry is not run; servers see absolute PATH folders only', async () => {
    const logs: string[] = [];
    const seenPath = join(tmp, 'server-path.txt');
    const env = hostileEnv();
    const served = await serveWorkspace({
      workspace: ws,
      port: 0,
      registry: false,
      env,
      home: join(tmp, 'home'),
      lsp: [
        { language: 'python', command: 'idea-trap-ls', args: [] },
        // Relative to idea-server's own working folder (this repository, which has no bin/), not the workspace.
        { language: 'ruby', command: './bin/idea-trap-ls', args: [] },
        // A "server" that writes the PATH it was given and exits.
        {
          language: 'envdump',
          command: process.execPath,
          args: ['-e', `require('fs').writeFileSync(${JSON.stringify(seenPath)}, process.env.PATH ?? '')`],
        },
      ],
      log: (m) => logs.push(m),
    });
    open.push({ served });
    const client = await connect({ url: served.url, token: served.token });
    open.push({ client });
    writeFileSync(join(ws, 'a.py'), 'x = 1\n');
    const symbols = await client.navSymbols({ filePath: join(ws, 'a.py') }, REQUEST);
    // Unavailable: an empty answer saying why (T48), as documented.
    expect(symbols).toEqual({
      symbols: [],
      totalCount: 0,
      unavailable: {
        kind: 'down',
        reason: expect.stringMatching(/^language server unavailable for python: command not found/),
      },
    });
    expect(markerText()).toBe('');
    expect(logs.join('\n')).toMatch(/python: idea-trap-ls \(idea-trap-ls was not found in PATH's absolute folders/);
    expect(logs.join('\n')).toMatch(/language server unavailable for python: command not found: idea-trap-ls \(/);
    writeFileSync(join(ws, 'a.rb'), 'x = 1\n');
    expect(await client.navSymbols({ filePath: join(ws, 'a.rb') }, REQUEST)).toMatchObject({
      symbols: [],
      totalCount: 0,
      unavailable: { kind: 'down' },
    });
    expect(markerText()).toBe('');
    expect(logs.join('\n')).toContain(
      `ruby: ./bin/idea-trap-ls (${join(process.cwd(), 'bin', 'idea-trap-ls')}; --lsp)`,
    );
    expect(logs.join('\n')).toContain(
      `language server unavailable for ruby: command not found: ${join(process.cwd(), 'bin', 'idea-trap-ls')}`,
    );
    writeFileSync(join(ws, 'a.envdump'), 'x\n');
    await client.navSymbols({ filePath: join(ws, 'a.envdump') }, REQUEST);
    expect(env.PATH!.split(':').slice(0, 4)).toEqual(['node_modules/.bin', 'bin', '.', '']);
    expect(readFileSync(seenPath, 'utf8')).toBe(
      savedPath!
        .split(':')
        .filter((d) => d.startsWith('/'))
        .join(':'),
    );
    expect(markerText()).toBe('');
  });
});

describe('--trust-workspace', () => {
  it("lets typescript-language-server run the workspace's TypeScript (the trap is live)", {
    timeout: SLOW,
  }, async () => {
    const logs: string[] = [];
    const served = await serveWorkspace({
      workspace: ws,
      port: 0,
      registry: false,
      env: hostileEnv(),
      home: join(tmp, 'home'),
      trustWorkspace: true,
      log: (m) => logs.push(m),
    });
    open.push({ served });
    const client = await connect({ url: served.url, token: served.token });
    open.push({ client });
    await client.navSymbols({ filePath: join(ws, 'shapes.ts') }, REQUEST).catch(() => undefined);
    const ran = await poll(() => (markerText().includes('workspace tsserver') ? true : undefined), {
      timeoutMs: 60_000,
    });
    expect(ran, `the workspace's tsserver to run and write ${marker}: ${markerText() || 'nothing'}`).toBe(true);
    expect(logs.find((l) => l.startsWith('typescript: '))).toMatch(
      /^typescript: --trust-workspace: the workspace's TypeScript may run/,
    );
    // Only the tsserver: git, rg and the rest still come from PATH's absolute folders.
    expect(
      markerText()
        .split('\n')
        .filter((l) => l && !l.startsWith('workspace tsserver ')),
    ).toEqual([]);
    rmSync(marker);
  });
});
