// What the scale benches share: their flags, the date-fns corpus unpacked into a temporary folder, the
// built idea-server bin, the floor proxy, process memory and inotify watch counts from /proc, and the load average seen.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTarget, ROOT } from '../../scripts/build';
import { IDEA_SERVER_BIN } from '../lib/idea-server-bin';
import { CACHE_ROOT, parseSizes } from './generate';

/** Default sizes (modules) when neither --sizes nor BENCH_SCALE_SIZES says: the 100k tree is opt-in. */
export const DEFAULT_SIZES = '1k,10k';

export interface ScaleArgs {
  json?: string;
  sizes: number[];
  /** Use idea-server/dist as it is (default: rebuilt from the tree first, as bench/idea-server does). */
  noBuild: boolean;
  /** Leave date-fns out where a bench runs on it and on the generated trees (--no-date-fns). */
  noDateFns: boolean;
  runs?: number;
}

/** --json FILE, --sizes 1k,10k,100k (else BENCH_SCALE_SIZES, else DEFAULT_SIZES), --no-build (else BENCH_NO_BUILD=1), --no-date-fns, --runs N. */
export function scaleArgs(): ScaleArgs {
  const { values } = parseArgs({
    options: {
      json: { type: 'string' },
      sizes: { type: 'string' },
      'no-build': { type: 'boolean' },
      'no-date-fns': { type: 'boolean' },
      runs: { type: 'string' },
    },
  });
  return {
    json: values.json,
    sizes: parseSizes(values.sizes ?? process.env.BENCH_SCALE_SIZES ?? DEFAULT_SIZES),
    // BENCH_NO_BUILD=1: the same for every entry of one `bench/run.ts` run (build once beforehand).
    noBuild: values['no-build'] ?? process.env.BENCH_NO_BUILD === '1',
    noDateFns: values['no-date-fns'] ?? false,
    runs: values.runs !== undefined ? Number(values.runs) : undefined,
  };
}

/**
 * Builds idea-server (unless --no-build) and returns a snapshot of its bin: idea-server/dist copied to a
 * folder of this run under CACHE_ROOT, beside a node_modules link to the repository's (typescript and
 * typescript-language-server resolve from there as from dist/). Other people rebuild dist/ in this tree
 * while a bench runs (the build cleans it first); the snapshot keeps every start of a run on one build.
 */
export async function ensureServerBuilt(args: ScaleArgs): Promise<string> {
  if (!args.noBuild) await buildTarget('server');
  if (!existsSync(IDEA_SERVER_BIN)) throw new Error(`${IDEA_SERVER_BIN} is missing: run without --no-build`);
  mkdirSync(CACHE_ROOT, { recursive: true });
  const snap = mkdtempSync(join(CACHE_ROOT, 'run-bin-'));
  cpSync(dirname(IDEA_SERVER_BIN), join(snap, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(snap, 'node_modules'));
  process.on('exit', () => rmSync(snap, { recursive: true, force: true }));
  return join(snap, 'dist', basename(IDEA_SERVER_BIN));
}

/**
 * The date-fns tarball in `shared/corpus` beside the checkout, or beside a folder above it (a worktree
 * under `wt/` shares its main checkout's corpus); the nearest one wins.
 */
export const DATE_FNS_TARBALL = (() => {
  const at = (dir: string) => join(dir, 'shared', 'corpus', 'date-fns-dd6639830.tar.gz');
  for (let dir = dirname(ROOT); dir !== dirname(dir); dir = dirname(dir)) if (existsSync(at(dir))) return at(dir);
  return at(dirname(ROOT));
})();

/**
 * A fresh copy of date-fns (../shared/corpus, see its README) under a new temporary folder in
 * CACHE_ROOT: `<tmp>/date-fns`, with src/tsconfig.bench.json (the library's config without the project
 * references to the submodules git archive leaves out) for `tsc --noEmit -p`. Unpacked once per machine
 * into the cache, copied per run (runs edit it).
 */
export function dateFnsCopy(): { dir: string; tmp: string; tsconfig: string } {
  const pristine = join(CACHE_ROOT, 'date-fns-dd6639830');
  if (!existsSync(join(pristine, 'date-fns', 'src', 'index.ts'))) {
    mkdirSync(pristine, { recursive: true });
    execFileSync('tar', ['-xzf', DATE_FNS_TARBALL, '-C', pristine]);
  }
  const tmp = mkdtempSync(join(CACHE_ROOT, 'run-date-fns-'));
  const dir = join(tmp, 'date-fns');
  cpSync(join(pristine, 'date-fns'), dir, { recursive: true });
  const tsconfig = join(dir, 'src', 'tsconfig.bench.json');
  writeFileSync(
    tsconfig,
    `${JSON.stringify({ extends: './tsconfig.json', compilerOptions: { composite: false, noEmit: true } }, null, 2)}\n`,
  );
  return { dir, tmp, tsconfig };
}

/** A process's resident set in MB (VmRSS), undefined once it is gone. */
export function rssMB(pid: number): number | undefined {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** On-CPU ns of every thread of `pid` (each task's schedstat under /proc; 0 once it is gone or off Linux). */
export function cpuNs(pid: number): number {
  let ns = 0;
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended
      }
    }
  } catch {
    // gone, or not Linux
  }
  return ns;
}

/** The pid's child processes (Linux: /proc/<pid>/task/<pid>/children). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** RSS of a process and all its descendants, MB. */
export function treeRssMB(pid: number): number {
  return (rssMB(pid) ?? 0) + childrenOf(pid).reduce((a, c) => a + treeRssMB(c), 0);
}

/** inotify watches a process holds (every inotify fd's `inotify wd:` lines in /proc/<pid>/fdinfo). */
export function inotifyWatches(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    try {
      n += readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

/** The 1-minute load average, sampled every second while the bench runs: its range for the report. */
export class LoadSampler {
  private min = loadavg()[0]!;
  private max = this.min;
  private readonly timer = setInterval(() => this.sample(), 1000).unref();
  private sample(): void {
    const l = loadavg()[0]!;
    this.min = Math.min(this.min, l);
    this.max = Math.max(this.max, l);
  }
  stop(): { min: number; max: number } {
    clearInterval(this.timer);
    this.sample();
    return { min: this.min, max: this.max };
  }
  /** "load 1.2–3.4 (1 min, 2 cores)". */
  line(): string {
    this.sample();
    return `load ${this.min.toFixed(1)}–${this.max.toFixed(1)} (1-min average)`;
  }
}

/**
 * bench/lib/floor-proxy.mts on `workspace` (`file` and `more`, relative to it, opened), resolved with its
 * url once it listens; `stop` ends it and its language server.
 */
export async function startFloorProxy(
  workspace: string,
  file: string,
  ...more: string[]
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../lib/floor-proxy.mts'), workspace, file, ...more],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`the floor proxy exited ${code}`)));
  });
  // Resolved once it exited (it kills its language server first); killed when it has not within 5 s.
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { url, pid: child.pid!, stop };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns a value, or throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (performance.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};

/** Rounds to 2 significant decimals for the table (ms and ratios). */
export const r2 = (x: number) => Math.round(x * 100) / 100;
