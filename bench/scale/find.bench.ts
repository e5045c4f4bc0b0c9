// edit/find through the built idea-server vs ripgrep run directly on the same generated tree, same run
// (issue 33): a rare literal (case-insensitive, 1 line in 50 modules) and a regex with \b and \d
// (case-sensitive, 2 lines in 100 modules), at every size of --sizes; runs interleaved (idea-server,
// then rg) so a load that comes and goes hits both alike. Baseline: rg's plain command line on the
// tree (--hidden, .git left out, line numbers, file names); for the regex the faster of rg's two
// engines. Target ≤ 1.1×. Beside it, rg with the very arguments idea-server gives it (VS Code's default
// exclude globs; for the regex the engine and pattern server-core/search/rg-pattern.ts chooses), timed in the same
// rotation: the part of the gap that is rg's own work as idea-server asks for it. Growth rows: the
// largest size's p50 over the smallest's, idea-server's against rg's.
//   npx tsx bench/scale/find.bench.ts [--sizes 1k,10k,100k] [--runs N] [--no-build] [--json out.json]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../../generated/current';
import { DEFAULT_FILES_EXCLUDE, DEFAULT_SEARCH_EXCLUDE } from '../../idea-server/src/settings';
import { findProgramOrUndefined } from '../../runtime/programs';
import { enabledGlobs } from '../../server-core/search/excludes';
import { rgRegexChoices } from '../../server-core/search/rg-pattern';
import { anchorGlob } from '../../server-core/search/ripgrep';
import { type BenchRow, emit } from '../lib/contract';
import { startIdeaServerBin } from '../lib/idea-server-bin';
import { summarize } from '../lib/stats';
import { ensureServerBuilt, LoadSampler, r2, scaleArgs } from './common';
import { CACHE_ROOT, FIND_LITERAL, FIND_REGEX, generateCached, sizeLabel } from './generate';

const args = scaleArgs();
const load = new LoadSampler();

/** rg on `cwd`; resolves with its wall time and the number of lines it printed. */
function rgDirect(rg: string, cwd: string, rgArgs: string[]): Promise<{ ms: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(rg, rgArgs, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (c: Buffer) => {
      for (const b of c) if (b === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - t0, lines }));
  });
}

/**
 * The command line idea-server itself gives rg for a case (server-core/search/ripgrep.ts rgSearchLines
 * with idea-server's default settings: VS Code's default files.exclude and search.exclude as `!` globs,
 * for a regex rg-pattern.ts's first choice of engine and pattern): what rg alone costs inside edit/find.
 */
function ideaServerRgArgs(match: string[]): string[] {
  const globs = enabledGlobs(DEFAULT_FILES_EXCLUDE, DEFAULT_SEARCH_EXCLUDE).flatMap((g) => [
    '--glob',
    `!${anchorGlob(g)}`,
  ]);
  return [
    ...[
      '--hidden',
      '--no-config',
      '--no-require-git',
      '--no-ignore-global',
      '--no-ignore-parent',
      '--no-ignore-messages',
    ],
    ...globs,
    ...['--null', '--line-number', '--no-heading', '--with-filename', '--color', 'never'],
    ...match,
    '--',
    '.',
  ];
}

const CASES = [
  {
    name: `literal "${FIND_LITERAL}", case-insensitive`,
    key: 'literal',
    params: { pattern: FIND_LITERAL },
    rg: [['--ignore-case', '--fixed-strings', '--regexp', FIND_LITERAL]],
    ideaRg: ideaServerRgArgs(['--ignore-case', '--fixed-strings', '--regexp', FIND_LITERAL]),
  },
  {
    name: `regex /${FIND_REGEX}/, case-sensitive`,
    key: 'regex',
    params: { pattern: FIND_REGEX, isRegex: true, isCaseSensitive: true },
    rg: [
      ['--case-sensitive', '--regexp', FIND_REGEX],
      ['--case-sensitive', '--pcre2', '--regexp', FIND_REGEX],
    ],
    ideaRg: ideaServerRgArgs(rgRegexChoices(FIND_REGEX, true)[0]!.args),
  },
] as const;

const bin = await ensureServerBuilt(args);
const rg = findProgramOrUndefined('rg', process.env);
if (!rg) throw new Error('no rg in PATH');
const home = mkdtempSync(join(CACHE_ROOT, 'run-find-home-'));
const rows: BenchRow[] = [];
/** p50 per case and size, both sides, for the growth rows. */
const p50s = new Map<string, { size: number; ours: number; rg: number }[]>();
try {
  for (const size of args.sizes) {
    const { dir, generatedMs } = generateCached(size);
    if (generatedMs !== undefined)
      console.error(`[scale/find] generated ${sizeLabel(size)} in ${Math.round(generatedMs)} ms`);
    const runs = args.runs ?? (size >= 100_000 ? 7 : 11);
    const server = await startIdeaServerBin({ workspace: dir, home, bin });
    const client = await connect({ url: server.url, token: server.token, timeoutMs: 120_000 });
    try {
      for (const c of CASES) {
        const variants = c.rg.map((a) => [
          '--hidden',
          '--no-config',
          '--glob',
          '!.git',
          '--line-number',
          '--no-heading',
          '--with-filename',
          ...a,
          '.',
        ]);
        let total = 0;
        let rgLines = 0;
        // Warm: the tree's pages, rg's and idea-server's first spawns.
        for (let i = 0; i < 2; i++) {
          total = (await client.editFind(c.params)).totalCount;
          for (const v of variants) rgLines = (await rgDirect(rg, dir, v)).lines;
          await rgDirect(rg, dir, c.ideaRg);
        }
        if (total !== rgLines)
          console.error(
            `[scale/find] ${sizeLabel(size)} ${c.key}: idea-server counts ${total} matches, rg printed ${rgLines} lines`,
          );
        const ours: number[] = [];
        const direct: number[][] = variants.map(() => []);
        const asIdea: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          await client.editFind(c.params);
          ours.push(performance.now() - t0);
          for (const [k, v] of variants.entries()) direct[k]!.push((await rgDirect(rg, dir, v)).ms);
          asIdea.push((await rgDirect(rg, dir, c.ideaRg)).ms);
        }
        const o = summarize(ours).p50;
        const d = Math.min(...direct.map((x) => summarize(x).p50));
        const a = summarize(asIdea).p50;
        console.error(
          `[scale/find] ${sizeLabel(size)} ${c.key}: idea-server p50 ${o.toFixed(1)} ms, rg ${direct.map((x) => summarize(x).p50.toFixed(1)).join(' / ')} ms, rg with idea-server's arguments ${a.toFixed(1)} ms (${total} matches, ${load.line()})`,
        );
        rows.push({
          metric: `edit/find p50 of ${runs}, ${c.name}, ${sizeLabel(size)} modules (${total} matches) vs rg direct p50`,
          value: r2(o),
          unit: 'ms',
          baseline: r2(d),
          ratio: r2(o / d),
          target: '≤ 1.1×',
          ok: o <= 1.1 * d,
        });
        rows.push({
          metric: `edit/find p50, ${sizeLabel(size)}, ${c.key}, vs rg with the arguments idea-server gives it (VS Code's default excludes${c.key === 'regex' ? `, ${rgRegexChoices(FIND_REGEX, true)[0]!.engine} engine, pattern translated` : ''}): what idea-server adds over its own rg`,
          value: r2(o),
          unit: 'ms',
          baseline: r2(a),
          ratio: r2(o / a),
        });
        const list = p50s.get(c.key) ?? [];
        list.push({ size, ours: o, rg: d });
        p50s.set(c.key, list);
      }
    } finally {
      client.close();
      await server.stop();
    }
  }
  for (const c of CASES) {
    const list = p50s.get(c.key) ?? [];
    if (list.length < 2) continue;
    const a = list[0]!;
    const b = list[list.length - 1]!;
    rows.push({
      metric: `edit/find growth ${sizeLabel(a.size)} → ${sizeLabel(b.size)} modules (${b.size / a.size}× the files), ${c.key}: idea-server's p50 ratio (baseline: rg's)`,
      value: r2(b.ours / a.ours),
      unit: '×',
      baseline: r2(b.rg / a.rg),
    });
  }
  const l = load.stop();
  rows.push({ metric: 'load average (1 min) during the find runs, highest (2 cores)', value: r2(l.max), unit: '' });
  emit({ name: 'scale: find', rows });
} finally {
  rmSync(home, { recursive: true, force: true });
}
