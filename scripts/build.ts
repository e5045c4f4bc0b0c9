// The one build of everything users run or install: a table of targets (what → entry, format,
// externals, defines, output) over one set of esbuild options, plus the two builds that are not
// bundles (@idea-kit/protocol's tsc, the .vsix's vsce). npm scripts select rows:
//   npx tsx scripts/build.ts <target|group>... [--watch] [--pack <dir>] [--json <file>]
//   targets: extension cli mcp conformance spec-tools protocol server vsix; group: packages (every package + .vsix)
// With --pack <dir> every package is packed there with a copy of the .vsix; one line per artefact
// (file, packed size, files) is printed and, with --json <file>, written as JSON. --watch rebuilds the
// selected bundles on change (the extension while developing it).
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { servedVersion } from '@idea-kit/spec-lib/served';
import { compareVersions, versionFolder } from '@idea-kit/spec-lib/version';
import { type BuildOptions, build, context, type Plugin } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

export interface Bundle {
  /** Entry and output, relative to the repository root. */
  entry: string;
  outfile: string;
  /** cjs where the loader is require() (VS Code, the CLI's fast start); esm for the other bins. */
  format: 'cjs' | 'esm';
  /** Beyond ws's optional native speed-ups, which every bundle leaves out. */
  external?: string[];
  /** A bin: minified, no source map, `#!/usr/bin/env node` first, mode 0755. Otherwise source maps, not minified. */
  bin?: boolean;
  /** Defines and plugins computed at build time (they may read the spec). */
  with?: () => Promise<{ define?: Record<string, string>; plugins?: Plugin[] }>;
}

export interface Target {
  /** Folders (relative to the root) emptied before building. */
  clean?: string[];
  bundles?: Bundle[];
  /** Steps after the bundles: copies, other compilers. */
  after?: () => void;
  /** The npm workspace packed by --pack. */
  pkg?: string;
  /** What the target makes, when not its first bundle or its package folder. */
  output?: () => string;
}

const EXTENSION_MANIFEST = () =>
  JSON.parse(readFileSync(join(ROOT, 'extension', 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
/** extension/dist/<name>-<version>.vsix */
export const vsixPath = () => {
  const m = EXTENSION_MANIFEST();
  return join(ROOT, 'extension', 'dist', `${m.name}-${m.version}.vsix`);
};

// VS Code loads `main` with require(); the .vsix ships no node_modules, so ws, diff and the generated
// dispatcher are inside. The regex worker thread is a second bundle beside it, loaded by file name, and
// the process spawner (server-core/spawn/spawner.ts, a child process that starts git and rg) a third.
export const EXTENSION_BUNDLES = {
  main: {
    entry: 'extension/src/extension.ts',
    outfile: 'extension/dist/extension.cjs',
    format: 'cjs',
    external: ['vscode'],
  },
  regexWorker: {
    entry: 'server-core/search/regex-worker.ts',
    outfile: 'extension/dist/regex-worker.cjs',
    format: 'cjs',
    external: ['vscode'],
  },
  spawner: {
    entry: 'server-core/spawn/spawner.ts',
    outfile: 'extension/dist/spawner.cjs',
    format: 'cjs',
  },
} satisfies Record<string, Bundle>;
const extensionBundles: Bundle[] = Object.values(EXTENSION_BUNDLES);

export const TARGETS = {
  extension: { bundles: extensionBundles },
  // `idea`: CommonJS, one file (start-up reads one file), the params schemas of its protocol version
  // embedded as __IDEA_SPEC__ (src/commands.ts derives the subcommands from them at run time).
  cli: {
    pkg: 'cli',
    // @idea-kit/server (--headless) is a dependency loaded on demand, not bundled: see the server row.
    bundles: [
      {
        entry: 'cli/src/bin.ts',
        outfile: 'cli/dist/idea.cjs',
        format: 'cjs',
        bin: true,
        external: ['@idea-kit/server'],
        with: cliSpec,
      },
    ],
  },
  // `idea-mcp`: the MCP SDK, ws, the generated client and tool tables inside.
  mcp: {
    pkg: 'mcp',
    clean: ['mcp/dist'],
    bundles: [
      {
        entry: 'mcp/src/cli.ts',
        outfile: 'mcp/dist/idea-mcp.mjs',
        format: 'esm',
        bin: true,
        external: ['@idea-kit/server'],
      },
    ],
  },
  // `idea-server` and its library entry (index.mjs: what `idea --headless` and `idea-mcp --headless`
  // import; a dependency of both, loaded only with --headless, so their bundles and start-up stay as
  // they were and one install of the language server serves all three), ESM; typescript-language-server and typescript stay outside, dependencies of the package
  // resolved at run time (lsp/config.ts), so one install serves the bin and the in-process servers.
  // The regex worker thread and the process spawner (server-core's, as the extension's) are bundles
  // beside them, found by file name from either (idea-server/src/serve.ts distFile).
  server: {
    pkg: 'idea-server',
    clean: ['idea-server/dist'],
    bundles: [
      {
        entry: 'idea-server/src/bin.ts',
        outfile: 'idea-server/dist/idea-server.mjs',
        format: 'esm',
        bin: true,
        external: ['typescript-language-server', 'typescript'],
      },
      {
        entry: 'idea-server/src/index.ts',
        outfile: 'idea-server/dist/index.mjs',
        format: 'esm',
        external: ['typescript-language-server', 'typescript'],
      },
      { ...EXTENSION_BUNDLES.regexWorker, outfile: 'idea-server/dist/regex-worker.cjs', external: [] },
      { ...EXTENSION_BUNDLES.spawner, outfile: 'idea-server/dist/spawner.cjs' },
    ],
  },
  // `idea-conformance`: fixtures, workspace builder, reporters, recorder and the generated validators
  // inside, the protocol text its reports link to beside it. `--launch` starts our extension from a
  // clone (livehost/), so the packaged bin says so instead of carrying a VS Code launcher.
  conformance: {
    pkg: 'conformance',
    clean: ['conformance/dist'],
    bundles: [
      {
        entry: 'conformance/cli.ts',
        outfile: 'conformance/dist/idea-conformance.mjs',
        format: 'esm',
        bin: true,
        with: async () => ({
          define: { __IDEA_PACKAGED__: 'true' },
          plugins: [
            cloneOnly(
              /^\.\/launch$/,
              ['runWithLaunch'],
              '--launch starts our extension in a live VS Code and needs a clone of idea-kit. With this package: install the extension (.vsix) in VS Code, build a fixture workspace (idea-conformance workspace <dir>), open it, then run --workspace <dir> [--url … --token …]',
            ),
          ],
        }),
      },
    ],
    // The served version's reference (spec/served.json), where the reports' clause links point; and a
    // draft's, where the client clauses are until it is served (protocol-<folder>.md).
    after: () => {
      const served = versionFolder(servedVersion(join(ROOT, 'spec')));
      const dist = join(ROOT, 'conformance', 'dist');
      cpSync(join(ROOT, 'generated', served, 'protocol.md'), join(dist, 'protocol.md'));
      for (const v of readdirSync(join(ROOT, 'generated')).filter((n) => /^v\d+\.\d+\.\d+$/.test(n)))
        if (compareVersions(v, served) > 0)
          cpSync(join(ROOT, 'generated', v, 'protocol.md'), join(dist, `protocol-${v}.md`));
    },
  },
  // `idea-spec`, with a copy of the published spec beside it (dist/spec/), which it works on when the
  // working directory is not a spec repository of its own.
  'spec-tools': {
    pkg: 'spec-tools',
    clean: ['spec-tools/dist'],
    bundles: [{ entry: 'spec-tools/cli.ts', outfile: 'spec-tools/dist/idea-spec.mjs', format: 'esm', bin: true }],
    after: () => cpSync(join(ROOT, 'spec'), join(ROOT, 'spec-tools', 'dist', 'spec'), { recursive: true }),
  },
  // @idea-kit/protocol: tsc compiles generated/ and runtime/ (tsconfig.build.json: ESM, .d.ts, maps); the
  // ajv standalone validators (already ESM JavaScript) are copied beside their .d.ts, each version's
  // JSON Schemas to schemas/<v>/ and its protocol.md to docs/<v>/.
  protocol: {
    pkg: 'packages/protocol',
    clean: ['packages/protocol/dist', 'packages/protocol/schemas', 'packages/protocol/docs'],
    after: buildProtocol,
  },
  // The extension as users install it.
  vsix: { bundles: extensionBundles, after: packVsix, output: () => vsixPath() },
} satisfies Record<string, Target>;

export type TargetName = keyof typeof TARGETS;
const GROUPS: Record<string, TargetName[]> = {
  packages: ['protocol', 'conformance', 'spec-tools', 'cli', 'mcp', 'server', 'vsix'],
};

/** The one set of esbuild options; a row adds its entry, output, format and externals (and, through `with`, defines and plugins). */
export function bundleOptions(b: Bundle): BuildOptions {
  return {
    // Paths in the bundles' comments are relative to the root wherever the build is started from.
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, b.entry)],
    outfile: join(ROOT, b.outfile),
    bundle: true,
    format: b.format,
    platform: 'node',
    target: 'node20',
    // bufferutil/utf-8-validate are optional native speed-ups that ws requires lazily.
    external: ['bufferutil', 'utf-8-validate', ...(b.external ?? [])],
    // Bundled CommonJS dependencies call require(): give an ESM bundle one.
    banner:
      b.format === 'esm'
        ? {
            js: "import { createRequire as __ideaCreateRequire } from 'node:module'; const require = __ideaCreateRequire(import.meta.url);",
          }
        : undefined,
    // A bin ships no sources, and for a minified bundle the map is as large as the code.
    ...(b.bin ? { minify: true, legalComments: 'none' } : { sourcemap: true }),
    logLevel: 'warning',
  };
}

/** A row's complete esbuild options, its computed defines and plugins included. */
export async function esbuildOptions(b: Bundle): Promise<BuildOptions> {
  return { ...bundleOptions(b), ...(b.with ? await b.with() : {}) };
}

/**
 * Targets already built for this process and its children, as `<root>:<name>,<name>…`: a test run
 * builds them once before its parallel workers start (test/global-setup.ts) and names them here,
 * because two test files building the same target at once would delete and rewrite files the other is
 * loading. Only builds of that root are skipped (a test may build a scratch copy of the repository).
 */
export const PREBUILT_ENV = 'IDEA_KIT_PREBUILT';

export function prebuiltValue(names: readonly TargetName[]): string {
  return `${ROOT}:${names.join(',')}`;
}

function isPrebuilt(name: TargetName): boolean {
  const v = process.env[PREBUILT_ENV] ?? '';
  const at = v.lastIndexOf(':');
  return (
    at > 0 &&
    v.slice(0, at) === ROOT &&
    v
      .slice(at + 1)
      .split(',')
      .includes(name)
  );
}

/** Builds one target's bundles and steps; returns what it made (its first bundle, the .vsix, the package folder). */
export async function buildTarget(name: TargetName): Promise<string> {
  const t: Target = TARGETS[name];
  if (!isPrebuilt(name)) {
    for (const dir of t.clean ?? []) rmSync(join(ROOT, dir), { recursive: true, force: true });
    await Promise.all(
      (t.bundles ?? []).map(async (b) => {
        await build(await esbuildOptions(b));
        if (b.bin) asBin(join(ROOT, b.outfile));
      }),
    );
    t.after?.();
    if (t.pkg) copyFileSync(join(ROOT, 'LICENSE'), join(ROOT, t.pkg, 'LICENSE'));
  }
  return t.output?.() ?? join(ROOT, t.bundles?.[0]?.outfile ?? t.pkg!);
}

/** The entry's own hashbang (`npx tsx`, for running from a clone) replaced by plain node's; executable. */
function asBin(file: string): void {
  const code = readFileSync(file, 'utf8');
  writeFileSync(file, `#!/usr/bin/env node\n${code.startsWith('#!') ? code.slice(code.indexOf('\n') + 1) : code}`);
  chmodSync(file, 0o755);
}

/** A module that only says why it is missing: for code paths that need a clone of idea-kit. */
function cloneOnly(filter: RegExp, names: string[], message: string): Plugin {
  return {
    name: 'clone-only',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'clone-only' }));
      b.onLoad({ filter: /.*/, namespace: 'clone-only' }, () => ({
        contents:
          `const fail = () => { throw new Error(${JSON.stringify(message)}); };\n` +
          names.map((n) => `export const ${n} = fail;\n`).join(''),
        loader: 'js',
      }));
    },
  };
}

/**
 * The CLI's version's spec, embedded, and other versions' frame validators left out: those validate a
 * server's frames, which the CLI does not ask for (it checks params before sending, against its own
 * version's validators); bundled, they were two thirds of the file (623 → 212 kB) and of its load
 * time. In their place a module whose FRAMES is undefined: the client then keeps its own version's
 * table for an older server. Imported here, not at the top, so the other targets never read the spec.
 */
async function cliSpec(): Promise<{ define: Record<string, string>; plugins: Plugin[] }> {
  const { PROTOCOL_VERSION } = await import('../cli/src/protocol');
  const { loadSpecDir } = await import('../cli/src/spec');
  const spec = loadSpecDir(join(ROOT, 'spec', `v${PROTOCOL_VERSION}`));
  const otherVersionsLeftOut: Plugin = {
    name: 'other-versions-left-out',
    setup(b) {
      b.onResolve({ filter: /^\.\/v[\d.]+\/frames\.js$/ }, (args) =>
        args.path === `./v${PROTOCOL_VERSION}/frames.js` ? undefined : { path: args.path, namespace: 'left-out' },
      );
      b.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({
        contents: 'export const FRAMES = undefined;',
        loader: 'js',
      }));
    },
  };
  return { define: { __IDEA_SPEC__: JSON.stringify(spec) }, plugins: [otherVersionsLeftOut] };
}

function buildProtocol(): void {
  const here = join(ROOT, 'packages', 'protocol');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  const versions = readdirSync(join(ROOT, 'generated')).filter((n) => /^v\d+\.\d+\.\d+$/.test(n));
  for (const v of versions) {
    for (const f of ['validators.js', 'validators.d.ts'])
      cpSync(join(ROOT, 'generated', v, f), join(here, 'dist', 'generated', v, f));
    cpSync(join(ROOT, 'generated', v, 'protocol.md'), join(here, 'docs', v, 'protocol.md'));
    cpSync(join(ROOT, 'spec', v), join(here, 'schemas', v), { recursive: true, filter: (src) => !src.endsWith('.md') });
  }
  for (const f of ['index.schema.json', 'releases.json'])
    if (existsSync(join(ROOT, 'spec', f))) cpSync(join(ROOT, 'spec', f), join(here, 'schemas', f));
  mkdirSync(join(here, 'dist'), { recursive: true });
}

/** vsce packs what extension/.vscodeignore lets through (the bundles, manifest, README). */
function packVsix(): void {
  const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  execFileSync(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsixPath()],
    { cwd: join(ROOT, 'extension'), stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

interface Artefact {
  name: string;
  file: string;
  size: number;
  unpackedSize?: number;
  files?: number;
}

/** npm pack of every selected package into `dest`, plus a copy of the .vsix when it was built. */
function pack(names: TargetName[], dest: string): Artefact[] {
  mkdirSync(dest, { recursive: true });
  const out: Artefact[] = [];
  for (const n of names) {
    const pkg: string | undefined = (TARGETS[n] as Target).pkg;
    if (!pkg) continue;
    const [info] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', dest], {
        cwd: join(ROOT, pkg),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    out.push({
      name: info.name,
      file: join(dest, info.filename),
      size: info.size,
      unpackedSize: info.unpackedSize,
      files: info.entryCount,
    });
  }
  if (names.includes('vsix')) {
    const copy = join(dest, `${EXTENSION_MANIFEST().name}-${EXTENSION_MANIFEST().version}.vsix`);
    copyFileSync(vsixPath(), copy);
    out.push(vsixArtefact(copy));
  }
  return out;
}

const vsixArtefact = (file: string): Artefact => ({
  name: `${EXTENSION_MANIFEST().publisher}.${EXTENSION_MANIFEST().name} (.vsix)`,
  file,
  size: statSync(file).size,
});

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { pack: { type: 'string' }, json: { type: 'string' }, watch: { type: 'boolean' } },
  });
  const names = [...new Set(positionals.flatMap((p) => GROUPS[p] ?? [p]))];
  const unknown = names.filter((n) => !(n in TARGETS));
  if (names.length === 0 || unknown.length > 0) {
    console.error(
      `usage: build.ts <target|group>... [--watch] [--pack <dir>] [--json <file>]\n  targets: ${Object.keys(TARGETS).join(' ')}; groups: ${Object.keys(GROUPS).join(' ')}${unknown.length ? `\n  unknown: ${unknown.join(' ')}` : ''}`,
    );
    process.exit(2);
  }
  const targets = names as TargetName[];
  if (values.watch) {
    for (const n of targets)
      for (const b of (TARGETS[n] as Target).bundles ?? [])
        await (await context({ ...(await esbuildOptions(b)), logLevel: 'info' })).watch();
    return;
  }
  // One after another: the packages' builds share two cores with everything else, and the log reads in order.
  for (const n of targets) {
    const out = await buildTarget(n);
    console.log(`${n} → ${out.slice(ROOT.length + 1)}`);
  }
  const artefacts = values.pack
    ? pack(targets, resolve(values.pack))
    : targets.includes('vsix')
      ? [vsixArtefact(vsixPath())]
      : [];
  for (const a of artefacts) {
    process.stdout.write(
      `${a.name.padEnd(32)} ${(a.size / 1024).toFixed(1).padStart(8)} kB${a.files ? `  ${a.files} files, ${(a.unpackedSize! / 1024).toFixed(0)} kB unpacked` : ''}  ${a.file}\n`,
    );
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(artefacts, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
