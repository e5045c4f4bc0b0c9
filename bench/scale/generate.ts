// Deterministic TypeScript workspaces for the scale benches (issue 33): `modules` modules with cross-file
// imports, an interface and its implementation each, comments of plain text, plus markdown notes, a
// tsconfig.json and a package.json. Same (modules, seed) → byte-identical tree.
//
// Layout: src/g<G>/p<PP>/m<i>.ts, 100 modules per folder, 100 folders per group (100k modules: 1,000
// leaf folders, ~1,015 in all, under idea-server's 4,096-folder watch bound), docs/d<D>/note<k>.md (one
// note per 25 modules), src/core/fanout.ts (the rename targets).
// Module i imports make<b> from the module before it in its folder and the interface Shape<a> from a
// seeded earlier module of its group; the first 10 / 100 / 1,000 modules also import and call
// fanoutTen / fanoutHundred / fanoutThousand (rename targets used in exactly that many files).
// Search targets: the literal `needleToken` on one line of every 50th module (i % 50 === 7), and calls
// `make<digits>{3,7}7(` matched by FIND_REGEX in 2 of every 100 modules.
//
// Generated trees are cached under CACHE_ROOT (never in the repository): generateCached() builds into a
// temporary folder and renames it into place, so a cached tree is always complete.
//   npx tsx bench/scale/generate.ts <folder> [--modules 1000] [--seed 33]   # one tree into <folder>
//   npx tsx bench/scale/generate.ts --cached 1k,10k,100k                     # fill the cache, print paths
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Bump when the output changes: cached trees of another version are not reused. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 33;
export const CACHE_ROOT = join(tmpdir(), 'idea-bench-scale');
export const MODULES_PER_FOLDER = 100;
export const FOLDERS_PER_GROUP = 100;
export const MODULES_PER_NOTE = 25;

/** The literal find target and the regex one (JavaScript syntax; rg's default engine and PCRE2 accept it). */
export const FIND_LITERAL = 'needleToken';
export const FIND_REGEX = '\\bmake\\d*[37]7\\(';

/** The rename targets: a function in src/core/fanout.ts called from exactly `files` modules. */
export const FANOUT = [
  { name: 'fanoutTen', files: 10 },
  { name: 'fanoutHundred', files: 100 },
  { name: 'fanoutThousand', files: 1000 },
] as const;
export const FANOUT_FILE = 'src/core/fanout.ts';

/** 0-based position of fanout `k`'s name in its declaration (`export function <name>(`), for nav/rename requests. */
export function fanoutDeclaration(k: number): { file: string; line: number; character: number } {
  return { file: FANOUT_FILE, line: 2 + k * 4, character: 'export function '.length };
}

const WORDS = [
  'alpha',
  'value',
  'count',
  'index',
  'result',
  'buffer',
  'handler',
  'config',
  'item',
  'node',
  'token',
  'state',
  'window',
  'stream',
  'record',
  'budget',
  'ledger',
  'signal',
  'cursor',
  'anchor',
  'harbor',
  'meadow',
  'copper',
  'violet',
];

/** mulberry32: small, fast, and the same numbers on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function modulePath(i: number): string {
  const g = Math.floor(i / (MODULES_PER_FOLDER * FOLDERS_PER_GROUP));
  const p = Math.floor(i / MODULES_PER_FOLDER) % FOLDERS_PER_GROUP;
  return `src/g${g}/p${String(p).padStart(2, '0')}/m${i}.ts`;
}

/** A relative import specifier from module `from` to module `to` (no extension: moduleResolution Bundler). */
function importPath(from: number, to: number | string): string {
  const target = typeof to === 'string' ? to : modulePath(to);
  const rel = relative(dirname(modulePath(from)), target.replace(/\.ts$/, ''))
    .split('\\')
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function sentence(r: () => number, words: number): string {
  const out: string[] = [];
  for (let k = 0; k < words; k++) out.push(WORDS[Math.floor(r() * WORDS.length)]!);
  return out.join(' ');
}

/** Module i's text: depends only on (i, seed). */
export function moduleText(i: number, seed: number): string {
  const r = rng((seed * 0x9e3779b1) ^ (i + 1));
  const inFolder = i % MODULES_PER_FOLDER;
  const groupStart = i - (i % (MODULES_PER_FOLDER * FOLDERS_PER_GROUP));
  const lines: string[] = [`// Module ${i}: ${sentence(r, 8)}.`];
  const prev = inFolder > 0 ? i - 1 : undefined; // make<prev> from the module before it in its folder
  const shape = i > groupStart ? groupStart + Math.floor(r() * (i - groupStart)) : undefined;
  const fanouts = FANOUT.filter((f) => i < f.files).map((f) => f.name);
  if (fanouts.length > 0) lines.push(`import { ${fanouts.join(', ')} } from '${importPath(i, FANOUT_FILE)}';`);
  if (shape !== undefined) lines.push(`import type { Shape${shape} } from '${importPath(i, shape)}';`);
  if (prev !== undefined) lines.push(`import { make${prev} } from '${importPath(i, prev)}';`);
  lines.push(
    '',
    `/** ${sentence(r, 12)}. */`,
    `export interface Shape${i} {`,
    '  readonly id: number;',
    '  label: string;',
    '  area(scale: number): number;',
    ...(shape !== undefined ? [`  next?: Shape${shape};`] : []),
    '}',
    '',
    `/** ${sentence(r, 10)}. */`,
    `export class Shape${i}Impl implements Shape${i} {`,
    `  readonly id = ${i};`,
    `  label = '${WORDS[Math.floor(r() * WORDS.length)]}-${i}';`,
    '  constructor(private readonly weight: number) {}',
    '  area(scale: number): number {',
    `    return this.weight * scale + ${Math.floor(r() * 1000)};`,
    '  }',
    '}',
    '',
  );
  // Text: a few comment lines of words, one with the rare literal in every 50th module.
  const notes = 3 + Math.floor(r() * 5);
  for (let k = 0; k < notes; k++) lines.push(`// ${sentence(r, 6 + Math.floor(r() * 8))}`);
  if (i % 50 === 7) lines.push(`// ${FIND_LITERAL}: revisit the ${sentence(r, 3)} here`);
  lines.push(`export function make${i}(weight: number): Shape${i} {`);
  let arg = 'weight';
  if (prev !== undefined) {
    lines.push(`  const before = make${prev}(weight + ${1 + Math.floor(r() * 9)});`);
    arg = 'before.area(2)';
  }
  for (const f of fanouts) arg = `${f}(${arg})`;
  lines.push(`  return new Shape${i}Impl(${arg});`, '}', '');
  return lines.join('\n');
}

function fanoutText(): string {
  const lines = [
    '// The rename targets of bench/scale: each is called from exactly the number of modules its name says.',
    '',
  ];
  for (const f of FANOUT)
    lines.push(`export function ${f.name}(x: number): number {`, `  return x + ${f.files};`, '}', '');
  return lines.join('\n');
}

function noteText(k: number, seed: number): string {
  const r = rng((seed * 0x85ebca6b) ^ (k + 1));
  const lines = [`# Note ${k}`, ''];
  const paras = 2 + Math.floor(r() * 3);
  for (let p = 0; p < paras; p++) lines.push(`${sentence(r, 20 + Math.floor(r() * 30))}.`, '');
  return lines.join('\n');
}

export interface GeneratedTree {
  dir: string;
  modules: number;
  seed: number;
  /** Every file written. */
  files: number;
  folders: number;
  bytes: number;
}

/** Writes the tree into `dir` (created; must not exist or be empty). */
export function generate(dir: string, modules: number, seed = DEFAULT_SEED): GeneratedTree {
  if (!Number.isSafeInteger(modules) || modules < 1) throw new Error(`modules must be a positive integer: ${modules}`);
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty`);
  const made = new Set<string>();
  let files = 0;
  let bytes = 0;
  const write = (rel: string, text: string) => {
    const d = dirname(join(dir, rel));
    if (!made.has(d)) {
      mkdirSync(d, { recursive: true });
      made.add(d);
    }
    writeFileSync(join(dir, rel), text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  write(
    'tsconfig.json',
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022'],
          types: [],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  write('package.json', `${JSON.stringify({ name: `scale-${modules}`, private: true, type: 'module' }, null, 2)}\n`);
  write(
    'README.md',
    `# A generated workspace\n\n${modules} TypeScript modules written by bench/scale/generate.ts (version ${GENERATOR_VERSION}, seed ${seed}).\n`,
  );
  write(FANOUT_FILE, fanoutText());
  for (let i = 0; i < modules; i++) write(modulePath(i), moduleText(i, seed));
  const notes = Math.ceil(modules / MODULES_PER_NOTE);
  for (let k = 0; k < notes; k++) write(`docs/d${Math.floor(k / 100)}/note${k}.md`, noteText(k, seed));
  return { dir, modules, seed, files, folders: made.size + 1, bytes };
}

/** "1k" → 1000, "100k" → 100000, "2500" → 2500. */
export function parseSize(s: string): number {
  const m = /^(\d+)(k?)$/i.exec(s.trim());
  if (!m) throw new Error(`not a size: ${s} (e.g. 1k, 10k, 100k, 2500)`);
  return Number(m[1]) * (m[2] ? 1000 : 1);
}

export function sizeLabel(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

/** `--sizes 1k,10k,100k` as numbers, ascending. */
export function parseSizes(s: string): number[] {
  return [...new Set(s.split(',').map(parseSize))].sort((a, b) => a - b);
}

export function cachedTreeDir(modules: number, seed = DEFAULT_SEED): string {
  return join(CACHE_ROOT, `gen-v${GENERATOR_VERSION}-s${seed}-${sizeLabel(modules)}`);
}

/**
 * The cached tree of `modules` modules, generated first when it is not there (never modify it: copy
 * it). `generatedMs` is set when it had to be generated now.
 */
export function generateCached(modules: number, seed = DEFAULT_SEED): { dir: string; generatedMs?: number } {
  const dir = cachedTreeDir(modules, seed);
  if (existsSync(join(dir, 'tsconfig.json'))) return { dir };
  mkdirSync(CACHE_ROOT, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const t0 = performance.now();
  generate(tmp, modules, seed);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return { dir, generatedMs: performance.now() - t0 };
}

/** Files under `dir` (a walk; for reports). */
export function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += countFiles(p);
    else if (statSync(p).isFile()) n++;
  }
  return n;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { modules: { type: 'string' }, seed: { type: 'string' }, cached: { type: 'string' } },
  });
  const seed = values.seed !== undefined ? Number(values.seed) : DEFAULT_SEED;
  if (values.cached) {
    for (const n of parseSizes(values.cached)) {
      const t = generateCached(n, seed);
      console.log(
        `${sizeLabel(n)}: ${t.dir}${t.generatedMs !== undefined ? ` (generated in ${Math.round(t.generatedMs)} ms)` : ' (cached)'}`,
      );
    }
  } else {
    const [dir] = positionals;
    if (!dir) throw new Error('usage: generate.ts <folder> [--modules 1000] [--seed 33] | --cached 1k,10k,100k');
    const t0 = performance.now();
    const t = generate(dir, values.modules ? parseSize(values.modules) : 1000, seed);
    console.log(
      `${t.dir}: ${t.files} files in ${t.folders} folders, ${(t.bytes / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - t0)} ms`,
    );
  }
}
