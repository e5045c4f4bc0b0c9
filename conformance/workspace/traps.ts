// A hostile repository, planted into a workspace: everything through which a server could be made to run
// code the workspace supplies or names (H19). A workspace copy of TypeScript (node_modules/typescript, the
// yarn and pnpify SDK copies), programs named in .vscode/settings.json, executables a relative PATH entry
// (`.`, `node_modules/.bin`) finds, and every program git takes from a repository: hooks, hooksPath,
// fsmonitor, pagers, editors, ssh, askpass, credential helpers, external diff, textconv, filters, merge
// drivers, signature programs, an included config file.
//
// Each trap, if anything runs it, appends one line (time, pid, cwd, argv) to <markerDir>/<id>, markerDir
// absolute, outside the workspace and baked into the trap (a server that copies a trap elsewhere is still
// caught). Then it behaves harmlessly, so that a server that runs one still answers and the suite can name
// what ran: filters and textconv pass content through, an external diff prints a plain diff, hooks succeed,
// a copy of tsserver throws. Disarmed git (runtime/git-disarm.ts, --no-ext-diff, --no-textconv) prints
// exactly what it prints without the traps: no trap sets diff.<drv>.binary or a funcname.
//
// The fixture workspace always carries the default set (build.ts). `full` adds what changes files the
// fixture tracks or pins (a tsserver plugin named in tsconfig.json, a .gitattributes) and what VS Code
// itself honours in a trusted workspace by design (typescript.tsserver.pluginPaths, typescript.npm): for
// hostile-repository tests of one's own, not for the suite's workspace.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseJsonc } from '../../runtime/jsonc';
import { lstatOrUndefined, writeInside } from './write-inside';

export interface Trap {
  /** Short kebab name; also the name of its marker file in markerDir. */
  id: string;
  /** What it is and what running it means, for reports. */
  what: string;
}

export interface PlantedTraps {
  /** Absolute folder outside the workspace where traps that ran leave their marker files. */
  markerDir: string;
  /** The `full` set was planted (see the header). */
  full: boolean;
  traps: Trap[];
}

export interface PlantOptions {
  /** Absolute, outside the workspace; created when missing. */
  markerDir: string;
  /** Also the traps that change tracked files or that VS Code honours by design (see the header). */
  full?: boolean;
}

export interface FiredTrap {
  id: string;
  /** What the marker recorded: one line per run (time, pid, cwd, argv; `file=` for a JavaScript copy). */
  detail: string;
}

/** Where plantTraps records what it planted, for the runner (lib/security-cases.ts) and the reset (reset.ts). */
export const TRAPS_MANIFEST = '.git/idea-fixture-traps.json';

/** The name git's config, attributes and tsconfig use for the trap drivers and the plugin. */
const DRIVER = 'idea-trap';
const PLUGIN = 'idea-trap-tsserver-plugin';
/** Programs a server might look up by bare name. */
const PROGRAM_NAMES = ['git', 'rg', 'node', 'npm', 'tsserver', 'typescript-language-server'];
/** githooks(5), git 2.39. */
const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
];
const BEGIN =
  '# >>> idea-kit conformance traps (conformance/workspace/traps.ts): every program named here records being run';
const END = '# <<< idea-kit conformance traps';

interface TrapFile {
  /** Relative to the workspace, "/"-separated (`.git/…` for the repository's own files). */
  rel: string;
  text: string;
  executable?: boolean;
}

interface Plan {
  traps: Trap[];
  files: TrapFile[];
  /** Merged into .vscode/settings.json. */
  settings: Record<string, unknown>;
  /** Blocks between BEGIN and END in .git/config, .git/info/attributes, .git/info/exclude. */
  gitConfig: string;
  attributes: string;
  exclude: string;
}

// --- the traps themselves ------------------------------------------------------------------------------

/** What a shell trap does after recording, so that whatever ran it goes on as if nothing happened. */
const THEN = {
  succeed: 'exit 0',
  fail: 'exit 1',
  passThrough: 'exec cat',
  catFile: 'exec cat "$1"',
  // git's external diff arguments: path old-file old-hex old-mode new-file new-hex new-mode
  plainDiff: 'diff -u "$2" "$5" 2>/dev/null\nexit 0',
  impostor: (id: string) =>
    `echo "idea-kit conformance trap ${id}: a program the workspace holds, which no server may run" >&2\nexit 0`,
};

function shellTrap(markerDir: string, id: string, what: string, then: string): string {
  return `#!/bin/sh
# idea-kit conformance trap ${id}: ${what}
# Whatever ran this ran a program the workspace supplies or names: it records that, then does no harm.
mkdir -p '${markerDir}' 2>/dev/null
printf '%s pid=%s cwd=%s argv=%s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null)" "$$" "$(pwd)" "$0 $*" >> '${markerDir}/${id}' 2>/dev/null
${then}
`;
}

const JS_RECORD = (markerDir: string, id: string) => `const fs = require('fs');
try {
  fs.mkdirSync(${JSON.stringify(markerDir)}, { recursive: true });
  fs.appendFileSync(
    ${JSON.stringify(`${markerDir}/${id}`)},
    \`\${new Date().toISOString()} pid=\${process.pid} cwd=\${process.cwd()} argv=\${process.argv.join(' ')} file=\${__filename}\\n\`,
  );
} catch {}`;

/** A JavaScript copy (tsserver.js, a plugin): records being loaded, then fails, as no workspace copy may run. */
function jsTrap(markerDir: string, id: string, what: string): string {
  return `// idea-kit conformance trap ${id}: ${what}
// Whatever loaded this ran code the workspace supplies: it records that, then fails.
'use strict';
${JS_RECORD(markerDir, id)}
throw new Error(${JSON.stringify(`idea-kit conformance trap ${id}: the workspace's own copy, which no server may run`)});
`;
}

/**
 * git's long-running filter (filter.<drv>.process): records being started, then speaks the protocol
 * (gitprotocol-long-running-process) and passes every file through unchanged, so plain git still works.
 */
function filterProcessTrap(markerDir: string, id: string, what: string): string {
  return `// idea-kit conformance trap ${id}: ${what}
// Whatever started this ran a program the repository names: it records that, then passes content through.
'use strict';
${JS_RECORD(markerDir, id)}
function readExact(n) {
  const b = Buffer.alloc(n);
  let o = 0;
  while (o < n) {
    const r = fs.readSync(0, b, o, n - o, null);
    if (r === 0) process.exit(0);
    o += r;
  }
  return b;
}
/** One pkt-line: its payload, or null for a flush packet. */
function readPkt() {
  const len = parseInt(readExact(4).toString('latin1'), 16);
  return len === 0 ? null : readExact(len - 4);
}
function readUntilFlush() {
  const out = [];
  for (let p = readPkt(); p !== null; p = readPkt()) out.push(p);
  return out;
}
function writePkt(payload) {
  const b = Buffer.from(payload);
  fs.writeSync(1, Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]));
}
const flush = () => fs.writeSync(1, '0000');
readUntilFlush(); // git-filter-client, version=2
writePkt('git-filter-server\\n');
writePkt('version=2\\n');
flush();
readUntilFlush(); // capability=clean, capability=smudge, …
writePkt('capability=clean\\n');
writePkt('capability=smudge\\n');
flush();
for (;;) {
  readUntilFlush(); // command=…, pathname=…
  const content = Buffer.concat(readUntilFlush());
  writePkt('status=success\\n');
  flush();
  for (let o = 0; o < content.length; o += 65516) writePkt(content.subarray(o, o + 65516));
  flush();
  flush(); // an empty list: the status stays success
}
`;
}

/** A command for git's config: quoted for the shell git runs it with, when it has to be. */
function shellWord(s: string): string {
  return /^[\w./+@%:=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A git config value: double-quoted so that `#` or `;` in a path cannot start a comment. */
function configValue(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function checkMarkerDir(workspace: string, markerDir: string): void {
  if (!isAbsolute(markerDir)) throw new Error(`trap markerDir must be absolute: ${markerDir}`);
  const rel = relative(workspace, markerDir);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)))
    throw new Error(`trap markerDir must be outside the workspace (a server could write it): ${markerDir}`);
  // It is written into shell scripts between single quotes and into git config values.
  if (/['\n\r\\"]/.test(markerDir))
    throw new Error(`trap markerDir may not hold quotes, backslashes or newlines: ${markerDir}`);
}

function planTraps(workspace: string, markerDir: string, full: boolean): Plan {
  const traps: Trap[] = [];
  const files: TrapFile[] = [];
  const settings: Record<string, unknown> = {};
  const abs = (rel: string) => join(workspace, ...rel.split('/'));
  const trap = (id: string, what: string) => {
    traps.push({ id, what });
    return { id, what };
  };
  const shell = (rel: string, t: Trap, then: string) =>
    files.push({ rel, text: shellTrap(markerDir, t.id, t.what, then), executable: true });
  const js = (rel: string, t: Trap) => files.push({ rel, text: jsTrap(markerDir, t.id, t.what) });

  // A workspace copy of TypeScript: typescript-language-server and editors prefer node_modules/typescript.
  files.push({
    rel: 'node_modules/typescript/package.json',
    text: `${JSON.stringify(
      {
        name: 'typescript',
        version: '9.9.9',
        description: 'idea-kit conformance trap: a workspace copy of TypeScript, which no server may run',
        main: './lib/typescript.js',
      },
      null,
      2,
    )}\n`,
  });
  js(
    'node_modules/typescript/lib/tsserver.js',
    trap('workspace-tsserver', "node_modules/typescript/lib/tsserver.js, the workspace's copy of TypeScript's server"),
  );
  js(
    'node_modules/typescript/lib/typescript.js',
    trap('workspace-typescript', "node_modules/typescript/lib/typescript.js, the workspace's copy of the compiler"),
  );
  js(
    'node_modules/typescript/lib/tsserverlibrary.js',
    trap('workspace-tsserverlibrary', "node_modules/typescript/lib/tsserverlibrary.js, the workspace's copy"),
  );
  js(
    '.yarn/sdks/typescript/lib/tsserver.js',
    trap('yarn-sdk-tsserver', '.yarn/sdks/typescript/lib/tsserver.js, the TypeScript server of a Yarn PnP SDK'),
  );
  js(
    '.vscode/pnpify/typescript/lib/tsserver.js',
    trap('pnpify-tsserver', '.vscode/pnpify/typescript/lib/tsserver.js, the TypeScript server of a pnpify SDK'),
  );

  // Programs a bare name finds through a relative PATH entry (`.`, an empty entry, node_modules/.bin).
  const root = trap(
    'workspace-root-program',
    `${PROGRAM_NAMES.join(', ')} at the workspace root, found through a relative PATH entry such as "." or an empty one`,
  );
  const bin = trap(
    'node-modules-bin-program',
    `${PROGRAM_NAMES.join(', ')} in node_modules/.bin, found through a relative PATH entry "node_modules/.bin"`,
  );
  for (const name of PROGRAM_NAMES) {
    shell(name, root, THEN.impostor(root.id));
    shell(`node_modules/.bin/${name}`, bin, THEN.impostor(bin.id));
  }

  // .vscode/settings.json keys that name a program or a folder to load code from.
  const settingsBin = (t: Trap) => {
    const rel = `.vscode/idea-traps/bin/${t.id}`;
    shell(rel, t, THEN.impostor(t.id));
    return abs(rel);
  };
  const tsdk = trap(
    'setting-typescript-tsdk',
    'a TypeScript named by typescript.tsdk (js/ts.tsdk.path) in .vscode/settings.json',
  );
  for (const f of ['tsserver.js', 'typescript.js', 'tsserverlibrary.js']) js(`.vscode/idea-traps/tsdk/${f}`, tsdk);
  settings['typescript.tsdk'] = abs('.vscode/idea-traps/tsdk');
  settings['js/ts.tsdk.path'] = abs('.vscode/idea-traps/tsdk');
  const node = settingsBin(
    trap('setting-tsserver-node', 'a Node named by typescript.tsserver.nodePath (js/ts.tsserver.node.path)'),
  );
  settings['typescript.tsserver.nodePath'] = node;
  settings['js/ts.tsserver.node.path'] = node;
  settings['git.path'] = settingsBin(trap('setting-git-path', 'a git named by git.path in .vscode/settings.json'));
  const rg = settingsBin(trap('setting-ripgrep-path', 'a ripgrep named by ripgrep.path / search.ripgrepPath'));
  settings['ripgrep.path'] = rg;
  settings['search.ripgrepPath'] = rg;
  settings['eslint.runtime'] = settingsBin(trap('setting-eslint-runtime', 'a Node named by eslint.runtime'));
  const eslintNodePath = trap('setting-eslint-node-path', 'an ESLint found in the folder eslint.nodePath names');
  files.push({
    rel: '.vscode/idea-traps/eslint-node-path/node_modules/eslint/package.json',
    text: `${JSON.stringify({ name: 'eslint', version: '99.9.9', main: './index.js' }, null, 2)}\n`,
  });
  js('.vscode/idea-traps/eslint-node-path/node_modules/eslint/index.js', eslintNodePath);
  settings['eslint.nodePath'] = abs('.vscode/idea-traps/eslint-node-path');
  const python = settingsBin(
    trap('setting-python-interpreter', 'a Python named by python.defaultInterpreterPath / python.pythonPath'),
  );
  settings['python.defaultInterpreterPath'] = python;
  settings['python.pythonPath'] = python;
  const shellProgram = settingsBin(
    trap('setting-terminal-shell', 'a shell named by terminal.integrated.* profiles, shell or automationProfile'),
  );
  for (const os of ['linux', 'osx']) {
    settings[`terminal.integrated.profiles.${os}`] = { [DRIVER]: { path: shellProgram } };
    settings[`terminal.integrated.defaultProfile.${os}`] = DRIVER;
    settings[`terminal.integrated.automationProfile.${os}`] = { path: shellProgram };
    settings[`terminal.integrated.shell.${os}`] = shellProgram;
  }

  // git: hooks in .git/hooks and in core.hooksPath, and every program its configuration can name.
  const dotGitBin = (t: Trap, then: string) => {
    const rel = `.git/idea-traps/bin/${t.id}`;
    shell(rel, t, then);
    return shellWord(abs(rel));
  };
  const hooks = trap('git-hooks', 'a hook in .git/hooks (every hook git knows)');
  const hooksPath = trap('git-hooks-path', 'a hook in the folder core.hooksPath names');
  for (const h of HOOKS) {
    shell(`.git/hooks/${h}`, hooks, THEN.succeed);
    shell(`.git/idea-traps/hooks/${h}`, hooksPath, THEN.succeed);
  }
  const filterProcess = trap('git-filter-process', `the long-running filter filter.${DRIVER}-process.process (*.md)`);
  files.push({
    rel: '.git/idea-traps/filter-process.js',
    text: filterProcessTrap(markerDir, filterProcess.id, filterProcess.what),
  });
  const included = abs('.git/idea-traps/included.config');
  const fsmonitor = dotGitBin(trap('git-fsmonitor', 'core.fsmonitor, run on every index refresh'), THEN.fail);
  const pager = dotGitBin(trap('git-pager', 'core.pager'), THEN.passThrough);
  const pagerCommand = dotGitBin(trap('git-pager-command', 'pager.<command> (log, diff, show, …)'), THEN.passThrough);
  const editor = dotGitBin(trap('git-editor', 'core.editor'), THEN.succeed);
  const sequenceEditor = dotGitBin(trap('git-sequence-editor', 'sequence.editor'), THEN.succeed);
  const external = dotGitBin(trap('git-diff-external', 'diff.external (*.md)'), THEN.plainDiff);
  const textconv = dotGitBin(trap('git-textconv', `diff.${DRIVER}.textconv (all but *.md)`), THEN.catFile);
  const diffCommand = dotGitBin(trap('git-diff-driver', `diff.${DRIVER}.command (all but *.md)`), THEN.plainDiff);
  const clean = dotGitBin(trap('git-filter-clean', `filter.${DRIVER}.clean (all but *.md)`), THEN.passThrough);
  const smudge = dotGitBin(trap('git-filter-smudge', `filter.${DRIVER}.smudge (all but *.md)`), THEN.passThrough);
  const mergeDriver = dotGitBin(trap('git-merge-driver', `merge.${DRIVER}.driver`), THEN.fail);
  const gpg = dotGitBin(trap('git-gpg', 'gpg.program (log.showSignature = true), gpg.x509.program'), THEN.fail);
  const config = [
    '[core]',
    `\thooksPath = ${configValue(abs('.git/idea-traps/hooks'))}`,
    `\tfsmonitor = ${configValue(fsmonitor)}`,
    `\tpager = ${configValue(pager)}`,
    `\teditor = ${configValue(editor)}`,
    '[sequence]',
    `\teditor = ${configValue(sequenceEditor)}`,
    '[pager]',
    ...['log', 'diff', 'show', 'blame', 'grep', 'branch', 'tag', 'status'].map(
      (c) => `\t${c} = ${configValue(pagerCommand)}`,
    ),
    '[diff]',
    `\texternal = ${configValue(external)}`,
    `[diff "${DRIVER}"]`,
    `\ttextconv = ${configValue(textconv)}`,
    `\tcommand = ${configValue(diffCommand)}`,
    `[filter "${DRIVER}"]`,
    `\tclean = ${configValue(`${clean} %f`)}`,
    `\tsmudge = ${configValue(`${smudge} %f`)}`,
    '\trequired = true',
    `[filter "${DRIVER}-process"]`,
    `\tprocess = ${configValue(`${shellWord(process.execPath)} ${shellWord(abs('.git/idea-traps/filter-process.js'))}`)}`,
    '\trequired = true',
    `[merge "${DRIVER}"]`,
    '\tname = idea-kit conformance trap',
    `\tdriver = ${configValue(`${mergeDriver} %O %A %B %L %P`)}`,
    '[gpg]',
    `\tprogram = ${configValue(gpg)}`,
    '[gpg "x509"]',
    `\tprogram = ${configValue(gpg)}`,
    '[log]',
    '\tshowSignature = true',
    '[include]',
    `\tpath = ${configValue(included)}`,
  ];
  const fromIncluded = (id: string, key: string, then: string) =>
    dotGitBin(trap(id, `${key} (from an included config file)`), then);
  const gpgSsh = fromIncluded('git-gpg-ssh', 'gpg.ssh.program, gpg.ssh.defaultKeyCommand', THEN.fail);
  const more = [
    '[core]',
    `\tsshCommand = ${configValue(fromIncluded('git-ssh-command', 'core.sshCommand', THEN.fail))}`,
    `\taskPass = ${configValue(fromIncluded('git-askpass', 'core.askPass', THEN.succeed))}`,
    `\tgitProxy = ${configValue(fromIncluded('git-proxy', 'core.gitProxy', THEN.fail))}`,
    `\talternateRefsCommand = ${configValue(fromIncluded('git-alternate-refs', 'core.alternateRefsCommand', THEN.succeed))}`,
    '[credential]',
    `\thelper = ${configValue(fromIncluded('git-credential-helper', 'credential.helper', THEN.succeed))}`,
    '[gpg "ssh"]',
    `\tprogram = ${configValue(gpgSsh)}`,
    `\tdefaultKeyCommand = ${configValue(gpgSsh)}`,
    '[uploadpack]',
    `\tpackObjectsHook = ${configValue(fromIncluded('git-pack-objects-hook', 'uploadpack.packObjectsHook', THEN.fail))}`,
  ];
  files.push({ rel: '.git/idea-traps/included.config', text: `${BEGIN}\n${more.join('\n')}\n${END}\n` });
  // *.md gets the external diff and the long-running filter: a driver's command and a filter's process
  // win over diff.external and clean/smudge, so each trap needs files of its own to be reachable.
  const attributes = `* diff=${DRIVER} filter=${DRIVER} merge=${DRIVER}\n*.md diff filter=${DRIVER}-process\n`;

  if (full) {
    const plugin = trap(
      'tsconfig-plugin',
      `the tsserver plugin ${PLUGIN} named in tsconfig.json compilerOptions.plugins`,
    );
    files.push({
      rel: `node_modules/${PLUGIN}/package.json`,
      text: `${JSON.stringify({ name: PLUGIN, version: '1.0.0', main: './index.js' }, null, 2)}\n`,
    });
    js(`node_modules/${PLUGIN}/index.js`, plugin);
    const pluginPaths = trap(
      'setting-tsserver-plugin-paths',
      `${PLUGIN} in a folder typescript.tsserver.pluginPaths names`,
    );
    files.push({
      rel: `.vscode/idea-traps/plugin-path/node_modules/${PLUGIN}/package.json`,
      text: `${JSON.stringify({ name: PLUGIN, version: '1.0.0', main: './index.js' }, null, 2)}\n`,
    });
    js(`.vscode/idea-traps/plugin-path/node_modules/${PLUGIN}/index.js`, pluginPaths);
    settings['typescript.tsserver.pluginPaths'] = [abs('.vscode/idea-traps/plugin-path')];
    settings['typescript.npm'] = settingsBin(trap('setting-typescript-npm', 'an npm named by typescript.npm'));
    files.push({ rel: '.gitattributes', text: attributes });
  }
  const exclude = [...PROGRAM_NAMES.map((n) => `/${n}`), '/.yarn/'].join('\n');
  return { traps, files, settings, gitConfig: config.join('\n'), attributes, exclude: `${exclude}\n` };
}

// --- planting --------------------------------------------------------------------------------------------

function readRegular(path: string): string | undefined {
  return lstatOrUndefined(path)?.isFile() ? readFileSync(path, 'utf8') : undefined;
}

/** Writes a file unless it already has this content and executable bit: a reset that finds the traps in place touches nothing. */
function plantFile(workspace: string, f: TrapFile): void {
  const abs = join(workspace, ...f.rel.split('/'));
  const st = lstatOrUndefined(abs);
  // A folder on the way that is not a real folder: writeInside replaces it, and so must this check not read through it.
  const real = f.rel
    .split('/')
    .slice(0, -1)
    .every((_, i, segs) => lstatOrUndefined(join(workspace, ...segs.slice(0, i + 1)))?.isDirectory());
  if (real && st?.isFile() && ((st.mode & 0o777) === 0o755) === !!f.executable && readFileSync(abs, 'utf8') === f.text)
    return;
  writeInside(workspace, f.rel, f.text, { executable: f.executable });
}

/** `text` with `block` between BEGIN and END, in place of an earlier one or appended. */
function withBlock(text: string, block: string): string {
  const wrapped = `${BEGIN}\n${block.replace(/\n?$/, '\n')}${END}\n`;
  const at = text.indexOf(BEGIN);
  const end = text.indexOf(END, at);
  if (at >= 0 && end >= 0) return text.slice(0, at) + wrapped + text.slice(end + END.length).replace(/^\n/, '');
  return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${wrapped}`;
}

function plantBlock(workspace: string, rel: string, block: string): void {
  const before = readRegular(join(workspace, ...rel.split('/'))) ?? '';
  const after = withBlock(before, block);
  if (after !== before || lstatOrUndefined(join(workspace, ...rel.split('/')))?.isFile() !== true)
    writeInside(workspace, rel, after);
}

function readJsonObject(path: string): Record<string, unknown> | undefined {
  const text = readRegular(path);
  if (text === undefined) return {};
  try {
    const v = parseJsonc(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Merges the trap keys into .vscode/settings.json, keeping every other key (the fixture's, the server's). */
function plantSettings(workspace: string, settings: Record<string, unknown>): void {
  const file = join(workspace, '.vscode', 'settings.json');
  const current = readJsonObject(file) ?? {};
  if (Object.entries(settings).every(([k, v]) => JSON.stringify(current[k]) === JSON.stringify(v))) return;
  writeInside(workspace, '.vscode/settings.json', `${JSON.stringify({ ...current, ...settings }, null, 2)}\n`);
}

/** `full`: names the plugin in tsconfig.json's compilerOptions.plugins (a tracked file of the fixture). */
function plantTsconfigPlugin(workspace: string): void {
  const tsconfig = readJsonObject(join(workspace, 'tsconfig.json')) ?? {};
  const options = (tsconfig.compilerOptions ?? {}) as Record<string, unknown>;
  const plugins = Array.isArray(options.plugins) ? (options.plugins as { name?: unknown }[]) : [];
  if (plugins.some((p) => p?.name === PLUGIN)) return;
  const next = { ...tsconfig, compilerOptions: { ...options, plugins: [...plugins, { name: PLUGIN }] } };
  writeInside(workspace, 'tsconfig.json', `${JSON.stringify(next, null, 2)}\n`);
}

/**
 * Plants the traps into `workspace` (a git work tree: its .git must be a folder) and records them in
 * TRAPS_MANIFEST. Idempotent: what is already in place is not written again. Every other key of
 * .vscode/settings.json and .git/config is kept; the trap blocks of .git/config, info/attributes and
 * info/exclude are replaced, so planting again after a reset rewrote .git/config puts them back.
 */
export function plantTraps(workspaceArg: string, o: PlantOptions): PlantedTraps {
  const workspace = resolve(workspaceArg);
  if (!lstatOrUndefined(join(workspace, '.git'))?.isDirectory())
    throw new Error(`cannot plant traps in ${workspace}: .git is not a folder (a git work tree is needed)`);
  checkMarkerDir(workspace, o.markerDir);
  const full = o.full === true;
  const plan = planTraps(workspace, o.markerDir, full);
  mkdirSync(o.markerDir, { recursive: true });
  for (const f of plan.files) plantFile(workspace, f);
  plantSettings(workspace, plan.settings);
  plantBlock(workspace, '.git/config', plan.gitConfig);
  plantBlock(workspace, '.git/info/attributes', plan.attributes);
  // Git and searches that honour ignore files leave the root impostors and .yarn/ alone: git status and a
  // reset's `git clean` do not see them, edit/find does not list them.
  plantBlock(workspace, '.git/info/exclude', plan.exclude);
  if (full) plantTsconfigPlugin(workspace);
  const planted: PlantedTraps = { markerDir: o.markerDir, full, traps: plan.traps };
  const manifest = `${JSON.stringify(planted, null, 2)}\n`;
  if (readRegular(join(workspace, ...TRAPS_MANIFEST.split('/'))) !== manifest)
    writeInside(workspace, TRAPS_MANIFEST, manifest);
  return planted;
}

/**
 * The planted files outside .git (workspace-relative), which the fast reset leaves to plantTraps: the root
 * impostors and .yarn/ are git-excluded, and the rest lies under the fixture's ignored folders.
 */
export function trapWorkTreeFiles(workspaceArg: string, planted: Pick<PlantedTraps, 'markerDir' | 'full'>): string[] {
  const workspace = resolve(workspaceArg);
  return planTraps(workspace, planted.markerDir, planted.full)
    .files.map((f) => f.rel)
    .filter((rel) => !rel.startsWith('.git/'));
}

/** The manifest plantTraps wrote, or undefined when there is none (a workspace from an older builder). Throws when it is unreadable. */
export function readTrapManifest(workspaceArg: string): PlantedTraps | undefined {
  const file = join(resolve(workspaceArg), ...TRAPS_MANIFEST.split('/'));
  const text = readRegular(file);
  if (text === undefined) return undefined;
  let v: Partial<PlantedTraps>;
  try {
    v = JSON.parse(text) as Partial<PlantedTraps>;
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
  if (
    typeof v?.markerDir !== 'string' ||
    !isAbsolute(v.markerDir) ||
    !Array.isArray(v.traps) ||
    !v.traps.every((t) => typeof t?.id === 'string' && typeof t.what === 'string')
  )
    throw new Error(`${file} is not a trap manifest (markerDir, traps[{id, what}])`);
  return { markerDir: v.markerDir, full: v.full === true, traps: v.traps };
}

// --- markers ---------------------------------------------------------------------------------------------

const MARKER_NAME = /^[a-z0-9][a-z0-9-]*$/;
const MAX_DETAIL = 2000;

/** What ran: one entry per marker file in `markerDir` (none when the folder does not exist), by id. */
export function firedTraps(markerDir: string): FiredTrap[] {
  let names: string[];
  try {
    names = readdirSync(markerDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => MARKER_NAME.test(n) && lstatOrUndefined(join(markerDir, n))?.isFile())
    .sort()
    .map((id) => {
      const text = readFileSync(join(markerDir, id), 'utf8').trim();
      return { id, detail: text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text };
    });
}

/** Removes the markers of every trap plantTraps knows (nothing else in `markerDir`): a fresh workspace has none. */
export function clearTrapMarkers(markerDir: string): void {
  // Ids do not depend on the paths: any plan of the full set lists them all.
  const ids = new Set(planTraps('/workspace', '/markers', true).traps.map((t) => t.id));
  let names: string[];
  try {
    names = readdirSync(markerDir);
  } catch {
    return;
  }
  for (const n of names) {
    if (!ids.has(n)) continue;
    const st = lstatOrUndefined(join(markerDir, n));
    if (st?.isFile() || st?.isSymbolicLink()) rmSync(join(markerDir, n), { force: true });
  }
}
