// v0.1.8's symbol topics through the built idea-server against typescript-language-server answering
// directly (lib/lsp-direct.ts: idea-server's command, tsserver and client capabilities), on date-fns (a
// copy of ../shared/corpus) and on the generated trees (--sizes; read only, so the cached tree itself),
// warm, sides interleaved in blocks, p50 each:
// - nav/findSymbol by a name path in one file vs textDocument/documentSymbol of that file (≤ 1.2×);
// - nav/workspaceSymbols vs the server's own workspace/symbol, same query (≤ 1.3×);
// - nav/referencingSymbols vs plain textDocument/references at the same symbol (≤ 1.3×);
// - edit/codeActions over a range vs textDocument/codeAction over it, twice as idea-server asks it
//   without `only`: every kind, then `source` (≤ 1.2×).
// Beside each target, the floor: the same request through lib/floor-proxy.mts (ws in → one LSP request →
// the answer mapped, nothing else) against the same direct baseline: what any process between a client
// and a language server costs on this machine. For referencing symbols also the work's own floor: the
// references, then the document symbols of every file they are in (8 at a time, as the handler asks).
//   npx tsx bench/scale/symbols.bench.ts [--sizes 1k,10k,100k] [--runs N] [--no-build] [--no-date-fns] [--json out.json]
// --runs N: rounds of interleaved blocks per topic (default 6). From 100k modules only workspace symbols,
// each side alone (3 blocks of 5 by default; see workspaceSymbolsAlone).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect, type IdeaClient } from '../../generated/current';
import { type BenchRow, emit } from '../lib/contract';
import { startIdeaServerBin } from '../lib/idea-server-bin';
import { type LspDirect, startLspDirect } from '../lib/lsp-direct';
import { summarize } from '../lib/stats';
import { dateFnsCopy, ensureServerBuilt, LoadSampler, r2, scaleArgs, startFloorProxy, until } from './common';
import { CACHE_ROOT, fanoutDeclaration, generateCached, modulePath, sizeLabel } from './generate';

const args = scaleArgs();
const load = new LoadSampler();
/** Calls per side in a row before the next side's turn. */
const BLOCK = 5;
/** From this many modules a tree is asked workspace symbols only, each side alone (workspaceSymbolsAlone). */
const ALONE_FROM = 100_000;
/** One request may take this long at 100k files (a cold project load is untimed but waited for). */
const REQUEST_MS = 600_000;

interface At {
  line: number;
  character: number;
}
interface Range extends At {
  endLine: number;
  endCharacter: number;
}
/** What one workspace is asked (paths relative to it). */
interface Case {
  label: string;
  /** Modules of a generated tree (undefined: date-fns). */
  modules?: number;
  dir: string;
  /** The file of find-symbol and code actions, the one the direct server and the floor proxy open. */
  file: string;
  namePath: string;
  /** The workspace symbol query. */
  query: string;
  /** The symbol whose references are grouped (its declaration's name). */
  refs: { file: string } & At;
  /** The code actions' range. */
  range: Range;
}

/** 0-based line and character of `token` on the first line of `text` holding `lineHas`. */
function find(text: string, lineHas: string, token = lineHas): At {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(lineHas));
  if (line < 0 || !lines[line]!.includes(token)) throw new Error(`no line with ${lineHas} and ${token}`);
  return { line, character: lines[line]!.indexOf(token) };
}
const spanOf = (text: string, lineHas: string, token: string): Range => {
  const at = find(text, lineHas, token);
  return { ...at, endLine: at.line, endCharacter: at.character + token.length };
};

function dateFnsCase(dir: string): Case {
  const file = 'src/addDays/index.ts';
  const text = readFileSync(join(dir, file), 'utf8');
  const toDate = 'src/toDate/index.ts';
  return {
    label: 'date-fns',
    dir,
    file,
    namePath: 'addDays',
    query: 'addDays',
    refs: { file: toDate, ...find(readFileSync(join(dir, toDate), 'utf8'), 'export function toDate', 'toDate') },
    range: spanOf(text, 'const _date = toDate(', 'toDate(date, options?.in)'),
  };
}

/** Module 57 of a generated tree: its class's method, Shape57* symbols, fanoutHundred's 100 importers. */
function generatedCase(modules: number): Case {
  const { dir } = generateCached(modules);
  const file = modulePath(57);
  const text = readFileSync(join(dir, file), 'utf8');
  const callee = /make56\(weight \+ \d+\)/.exec(text)?.[0];
  if (!callee) throw new Error(`${file} no longer calls make56`);
  return {
    label: `${sizeLabel(modules)} tree`,
    modules,
    dir,
    file,
    namePath: 'Shape57Impl/area',
    query: 'Shape57',
    refs: fanoutDeclaration(1),
    range: spanOf(text, 'const before = make56(', callee),
  };
}

type Side = () => Promise<void>;

/** Every side `rounds` times in blocks of BLOCK calls, sides in turn, after two calls each; ms per call. */
async function interleaved(sides: Record<string, Side>, rounds: number): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = {};
  for (const [name, call] of Object.entries(sides)) {
    times[name] = [];
    await call();
    await call();
  }
  for (let r = 0; r < rounds; r++)
    for (const [name, call] of Object.entries(sides))
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await call();
        times[name]!.push(performance.now() - t0);
      }
  return times;
}

const nonEmpty = <T>(what: string, xs: readonly T[] | null | undefined): T[] => {
  if (!xs || xs.length === 0) throw new Error(`${what}: an empty answer`);
  return [...xs];
};

/** Retries `call` while its answer is empty or the server's own request times out (a project loading). */
async function answering(what: string, call: () => Promise<void>, boundMs = REQUEST_MS): Promise<void> {
  await until(
    what,
    async () => {
      try {
        await call();
        return true;
      } catch (e) {
        if (/an empty answer/.test(String(e))) return undefined;
        if (!/timed out/.test(String(e))) throw e;
        console.error(`[scale/symbols] ${what}: not yet: ${(e as Error).message}`);
        return undefined;
      }
    },
    boundMs,
    250,
  );
}

/**
 * From ALONE_FROM modules only nav/workspaceSymbols, each side with its project loaded alone (one
 * tsserver holds several GB there: three at once do not fit beside the other work of a 24 GB machine),
 * idea-server's blocks first, then the direct server's; no floor proxy.
 */
async function workspaceSymbolsAlone(c: Case, bin: string, rows: BenchRow[]): Promise<void> {
  const calls = (args.runs ?? 3) * BLOCK;
  const timed = async (call: Side): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < 2 + calls; i++) {
      const t0 = performance.now();
      await call();
      if (i >= 2) out.push(performance.now() - t0);
    }
    return out;
  };
  const home = mkdtempSync(join(CACHE_ROOT, 'run-symbols-home-'));
  let ours: number[] | undefined;
  /** Why idea-server gave no workspace symbols at this size, if it gave none. */
  let none: string | undefined;
  let direct: number[];
  const t0 = performance.now();
  const server = await startIdeaServerBin({ workspace: c.dir, home, bin });
  try {
    const client = await connect({ url: server.url, token: server.token, timeoutMs: REQUEST_MS });
    const call = async () => {
      nonEmpty('nav/workspaceSymbols', (await client.navWorkspaceSymbols({ query: c.query })).symbols);
    };
    // The project loaded first through a cheap question: every navto that times out while it loads stays
    // queued in tsserver, and a queue of them holds the first timed calls back.
    await answering(`${c.label}: idea-server's findSymbol`, async () => {
      nonEmpty(
        'nav/findSymbol',
        (await client.navFindSymbol({ namePath: c.namePath, filePath: join(c.dir, c.file) })).symbols,
      );
    });
    console.error(`[scale/symbols] ${c.label}: project loaded after ${Math.round(performance.now() - t0)} ms`);
    try {
      await answering(`${c.label}: idea-server's workspaceSymbols`, call, 300_000);
      ours = await timed(call);
    } catch (e) {
      // Its language-server request bound (60 s) is shorter than navto over 100k files may take here.
      if (!/timed out|not within/.test(String(e))) throw e;
      none = (e as Error).message;
      console.error(`[scale/symbols] ${c.label}: idea-server gives no workspace symbols: ${none}`);
    }
    client.close();
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
  const t1 = performance.now();
  const d = await startLspDirect(c.dir);
  try {
    d.open(join(c.dir, c.file));
    const call = async () => {
      nonEmpty('workspace/symbol', await d.request<unknown[] | null>('workspace/symbol', { query: c.query }));
    };
    await answering(`${c.label}: the direct server's workspace/symbol`, call);
    console.error(
      `[scale/symbols] ${c.label}: the direct server answers after ${Math.round(performance.now() - t1)} ms`,
    );
    direct = await timed(call);
  } finally {
    await d.close();
  }
  const b = summarize(direct).p50;
  if (!ours) {
    rows.push(
      {
        metric: `${c.label}: nav/workspaceSymbols "${c.query}": no answer from idea-server within 300 s after its project loaded (${none})`,
        value: 0,
        unit: 'answers',
        target: '≤ 1.3×',
        ok: false,
      },
      {
        metric: `${c.label}: the language server's own workspace/symbol "${c.query}", warm p50 of ${calls}, alone`,
        value: r2(b),
        unit: 'ms',
      },
    );
    return;
  }
  const o = summarize(ours).p50;
  console.error(`[scale/symbols] ${c.label} workspaceSymbols p50: ours ${o.toFixed(2)} ms, direct ${b.toFixed(2)} ms`);
  rows.push({
    metric: `${c.label}: nav/workspaceSymbols "${c.query}", warm p50 of ${calls} vs the language server's own workspace/symbol (each side alone, one after the other)`,
    value: r2(o),
    unit: 'ms',
    baseline: r2(b),
    ratio: r2(o / b),
    target: '≤ 1.3×',
    ok: o <= 1.3 * b,
  });
}

async function measure(c: Case, bin: string, rows: BenchRow[]): Promise<void> {
  if (c.modules !== undefined && c.modules >= ALONE_FROM) return workspaceSymbolsAlone(c, bin, rows);
  const rounds = args.runs ?? 6;
  const home = mkdtempSync(join(CACHE_ROOT, 'run-symbols-home-'));
  const abs = (f: string) => join(c.dir, f);
  const server = await startIdeaServerBin({ workspace: c.dir, home, bin });
  let client: IdeaClient | undefined;
  let direct: LspDirect | undefined;
  let proxy: Awaited<ReturnType<typeof startFloorProxy>> | undefined;
  let floor: IdeaClient | undefined;
  try {
    const t0 = performance.now();
    client = await connect({ url: server.url, token: server.token, timeoutMs: REQUEST_MS });
    direct = await startLspDirect(c.dir);
    proxy = await startFloorProxy(c.dir, c.file, c.refs.file);
    floor = await connect({ url: proxy.url, timeoutMs: REQUEST_MS });
    const [ours, d, fl] = [client, direct, floor];
    d.open(abs(c.file));
    d.open(abs(c.refs.file));
    const fileUri = { uri: pathToFileURL(abs(c.file)).href };
    const refsParams = { filePath: abs(c.refs.file), line: c.refs.line, character: c.refs.character };
    const refsAt = d.at(abs(c.refs.file), c.refs.line, c.refs.character);
    // A code action list as idea-server makes one without `only`: every kind, then the `source` actions
    // servers give only when asked by kind (server-core/handlers/edit-code-actions.ts).
    const codeActionList = async () => {
      const ask = (only?: string[]) =>
        d.request<unknown[] | null>('textDocument/codeAction', {
          textDocument: fileUri,
          range: {
            start: { line: c.range.line, character: c.range.character },
            end: { line: c.range.endLine, character: c.range.endCharacter },
          },
          context: { diagnostics: [], triggerKind: 1, ...(only && { only }) },
        });
      return [...((await ask()) ?? []), ...((await ask(['source'])) ?? [])];
    };
    const opened = new Set([pathToFileURL(abs(c.file)).href, pathToFileURL(abs(c.refs.file)).href]);
    // Each side answers each question once, untimed: every project loaded (idea-server loads them itself).
    const sides = {
      findSymbol: {
        ours: async () => {
          const r = await ours.navFindSymbol({ namePath: c.namePath, filePath: abs(c.file) });
          nonEmpty('nav/findSymbol', r.symbols);
        },
        direct: async () => {
          nonEmpty(
            'documentSymbol',
            await d.request<unknown[] | null>('textDocument/documentSymbol', { textDocument: fileUri }),
          );
        },
        floor: async () => {
          nonEmpty(
            'floor nav/findSymbol',
            (await fl.navFindSymbol({ namePath: c.namePath, filePath: abs(c.file) })).symbols,
          );
        },
      },
      workspaceSymbols: {
        ours: async () => {
          nonEmpty('nav/workspaceSymbols', (await ours.navWorkspaceSymbols({ query: c.query })).symbols);
        },
        direct: async () => {
          nonEmpty('workspace/symbol', await d.request<unknown[] | null>('workspace/symbol', { query: c.query }));
        },
        floor: async () => {
          nonEmpty('floor nav/workspaceSymbols', (await fl.navWorkspaceSymbols({ query: c.query })).symbols);
        },
      },
      referencingSymbols: {
        ours: async () => {
          nonEmpty('nav/referencingSymbols', (await ours.navReferencingSymbols(refsParams)).groups);
        },
        direct: async () => {
          nonEmpty(
            'references',
            await d.request<unknown[] | null>('textDocument/references', {
              ...refsAt,
              context: { includeDeclaration: false },
            }),
          );
        },
        floor: async () => {
          const r = await fl.navReferences({ ...refsParams, includeDeclaration: false });
          nonEmpty('floor nav/references', r.locations);
        },
        work: async () => {
          const refs = nonEmpty(
            'references',
            await d.request<{ uri: string }[] | null>('textDocument/references', {
              ...refsAt,
              context: { includeDeclaration: false },
            }),
          );
          const files = [...new Set(refs.map((r) => r.uri))];
          let next = 0;
          const worker = async () => {
            while (next < files.length) {
              const uri = files[next++]!;
              if (!opened.has(uri)) {
                opened.add(uri);
                d.open(fileURLToPath(uri));
              }
              await d.request('textDocument/documentSymbol', { textDocument: { uri } });
            }
          };
          await Promise.all(Array.from({ length: Math.min(8, files.length) }, worker));
        },
      },
      codeActions: {
        ours: async () => {
          nonEmpty('edit/codeActions', (await ours.editCodeActions({ filePath: abs(c.file), ...c.range })).actions);
        },
        direct: async () => {
          nonEmpty('codeAction', await codeActionList());
        },
        floor: async () => {
          nonEmpty('floor edit/codeActions', (await fl.editCodeActions({ filePath: abs(c.file), ...c.range })).actions);
        },
      },
    };
    // Untimed: until every side answers every question (the direct and proxy servers load the project).
    for (const [topic, sd] of Object.entries(sides))
      for (const [side, call] of Object.entries(sd)) await answering(`${c.label}: ${side} ${topic}`, call);
    // The same question on every side: as many code actions (the floor proxy speaks idea-server's capabilities).
    const offered = [
      (await ours.editCodeActions({ filePath: abs(c.file), ...c.range })).actions.length,
      (await codeActionList()).length,
      (await fl.editCodeActions({ filePath: abs(c.file), ...c.range })).actions.length,
    ];
    console.error(
      `[scale/symbols] ${c.label}: every side answers, after ${Math.round(performance.now() - t0)} ms; code actions offered ${offered.join(' / ')}`,
    );
    const target = { findSymbol: 1.2, workspaceSymbols: 1.3, referencingSymbols: 1.3, codeActions: 1.2 } as const;
    const what = {
      findSymbol: [`nav/findSymbol "${c.namePath}" in ${c.file}`, "the language server's documentSymbol of that file"],
      workspaceSymbols: [`nav/workspaceSymbols "${c.query}"`, "the language server's own workspace/symbol"],
      referencingSymbols: [
        `nav/referencingSymbols of ${c.refs.file}:${c.refs.line + 1}`,
        'plain textDocument/references at it',
      ],
      codeActions: [
        `edit/codeActions over ${c.file}:${c.range.line + 1}`,
        'textDocument/codeAction over that range (all kinds, then source, as idea-server asks)',
      ],
    } as const;
    for (const [topic, s] of Object.entries(sides) as [keyof typeof sides, Record<string, Side>][]) {
      const t = await interleaved(s, rounds);
      const p = (side: string) => summarize(t[side]!).p50;
      const n = t.ours!.length;
      const [ourText, baseText] = what[topic];
      console.error(
        `[scale/symbols] ${c.label} ${topic} p50: ${Object.keys(t)
          .map((side) => `${side} ${p(side).toFixed(2)} ms`)
          .join(', ')} (${load.line()})`,
      );
      rows.push({
        metric: `${c.label}: ${ourText}, warm p50 of ${n} vs ${baseText}`,
        value: r2(p('ours')),
        unit: 'ms',
        baseline: r2(p('direct')),
        ratio: r2(p('ours') / p('direct')),
        target: `≤ ${target[topic]}×`,
        ok: p('ours') <= target[topic] * p('direct'),
      });
      rows.push({
        metric: `${c.label}: the floor, the same request through the floor proxy (ws in → one LSP request → out) vs the same baseline`,
        value: r2(p('floor')),
        unit: 'ms',
        baseline: r2(p('direct')),
        ratio: r2(p('floor') / p('direct')),
      });
      if (t.work)
        rows.push({
          metric: `${c.label}: the work's floor, the references then every file's documentSymbol directly (8 at a time) vs the references alone`,
          value: r2(p('work')),
          unit: 'ms',
          baseline: r2(p('direct')),
          ratio: r2(p('work') / p('direct')),
        });
    }
  } finally {
    client?.close();
    floor?.close();
    await proxy?.stop();
    await direct?.close();
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

const rows: BenchRow[] = [];
const bin = await ensureServerBuilt(args);
const cases: (() => Case)[] = [];
let copy: ReturnType<typeof dateFnsCopy> | undefined;
if (!args.noDateFns)
  cases.push(() => {
    copy = dateFnsCopy();
    return dateFnsCase(copy.dir);
  });
for (const n of args.sizes) cases.push(() => generatedCase(n));
try {
  for (const make of cases) await measure(make(), bin, rows);
} finally {
  if (copy) rmSync(copy.tmp, { recursive: true, force: true });
}
const l = load.stop();
rows.push({ metric: 'load average (1 min) during the symbol runs, highest (2 cores)', value: r2(l.max), unit: '' });
emit({ name: 'scale: symbols', rows });
