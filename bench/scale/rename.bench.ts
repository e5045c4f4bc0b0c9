// edit/rename through the built idea-server vs typescript-language-server's own rename plus writing its
// edits with plain fs, same run (issue 33): the generated 1k tree's fanoutTen / fanoutHundred /
// fanoutThousand (src/core/fanout.ts), called from exactly 10 / 100 / 1,000 modules (two references
// each: the import and the call). Each side has its own copy of the tree and its own language server;
// renames alternate between the sides and between the name and name + "B". idea-server: edit/rename
// (prepareRename, rename, every file read, diffed, written as one transaction with local history).
// Direct: textDocument/rename, then each file read, the edits applied and written with
// readFileSync/writeFileSync, and didChange for the one open file. Between renames each side waits until
// its language server has seen every written file (references at the declaration count them all
// again), untimed. Target ≤ 1.5× per size, and linear: the cost of each file added from 100 to 1,000
// at most 1.5× that from 10 to 100. Beside them, the direct side's files written again crash-safe (the
// same bytes): one after another as write/atomic-file.ts does, and all together (concurrent fsyncs,
// one per folder): the floors of a write that must survive a crash, which plain fs is not.
//   npx tsx bench/scale/rename.bench.ts [--runs N] [--no-build] [--json out.json]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type IdeaClient } from '../../generated/current';
import { type BenchRow, emit } from '../lib/contract';
import { type BinServer, startIdeaServerBin } from '../lib/idea-server-bin';
import { type LspDirect, startLspDirect } from '../lib/lsp-direct';
import { ensureServerBuilt, LoadSampler, median, r2, scaleArgs, sleep, until } from './common';
import { CACHE_ROOT, FANOUT, FANOUT_FILE, fanoutDeclaration, generateCached } from './generate';
import { applyEdits, durableOneByOne, durableTogether, editsPerFile, type LspWorkspaceEdit } from './write-floors';

const args = scaleArgs();
const load = new LoadSampler();
const RUNS = args.runs ?? 3;
const MODULES = 1000;

const { dir: pristine } = generateCached(MODULES);
const tmp = mkdtempSync(join(CACHE_ROOT, 'run-rename-'));
const oursDir = join(tmp, 'ours');
const directDir = join(tmp, 'direct');
cpSync(pristine, oursDir, { recursive: true });
cpSync(pristine, directDir, { recursive: true });
const rows: BenchRow[] = [];
let server: BinServer | undefined;
let client: IdeaClient | undefined;
let direct: LspDirect | undefined;

/** References (with the declaration) the fanout of `files` callers has: two per caller and the declaration. */
const expectedRefs = (files: number) => 2 * files + 1;

try {
  const bin = await ensureServerBuilt(args);
  server = await startIdeaServerBin({ workspace: oursDir, home: join(tmp, 'home'), bin });
  client = await connect({ url: server.url, token: server.token, timeoutMs: 300_000 });
  direct = await startLspDirect(directDir);
  const directFanout = join(directDir, FANOUT_FILE);
  direct.open(directFanout);
  const c = client;
  const d = direct;

  const oursRefs = async (k: number) => {
    const at = fanoutDeclaration(k);
    return (await c.navReferences({ filePath: join(oursDir, at.file), line: at.line, character: at.character }))
      .totalCount;
  };
  const directRefs = async (k: number) => {
    const at = fanoutDeclaration(k);
    const r = await d.request<unknown[] | null>('textDocument/references', {
      ...d.at(directFanout, at.line, at.character),
      context: { includeDeclaration: true },
    });
    return r?.length ?? 0;
  };
  /** Until both language servers count every reference of fanout k (their project loaded, every write seen). */
  const fresh = async (k: number) => {
    const want = expectedRefs(FANOUT[k]!.files);
    await until(
      `idea-server's references to ${FANOUT[k]!.name}`,
      async () => ((await oursRefs(k)) === want ? true : undefined),
      120_000,
      200,
    );
    await until(
      `direct references to ${FANOUT[k]!.name}`,
      async () => ((await directRefs(k)) === want ? true : undefined),
      120_000,
      200,
    );
  };
  const t0 = performance.now();
  for (let k = 0; k < FANOUT.length; k++) await fresh(k);
  console.error(`[scale/rename] both language servers loaded the 1k tree in ${Math.round(performance.now() - t0)} ms`);

  const perSize: { files: number; ours: number; direct: number }[] = [];
  for (let k = 0; k < FANOUT.length; k++) {
    const { name, files } = FANOUT[k]!;
    const at = fanoutDeclaration(k);
    const ours: number[] = [];
    const plain: number[] = [];
    const durable1: number[] = [];
    const durableN: number[] = [];
    let current: string = name;
    // One untimed round to warm both paths, then RUNS timed ones.
    for (let i = 0; i <= RUNS; i++) {
      const next = current === name ? `${name}B` : name;
      // idea-server
      let t = performance.now();
      const r = await c.editRename({
        filePath: join(oursDir, at.file),
        line: at.line,
        character: at.character,
        newName: next,
      });
      const oursMs = performance.now() - t;
      if (r.changedFiles.length !== files + 1)
        throw new Error(`idea-server's rename of ${current} changed ${r.changedFiles.length} files, not ${files + 1}`);
      // direct: the server's rename, its edits written with plain fs
      t = performance.now();
      const edit = await d.request<LspWorkspaceEdit | null>('textDocument/rename', {
        ...d.at(directFanout, at.line, at.character),
        newName: next,
      });
      const perFile = editsPerFile(edit);
      const written: [string, string][] = [];
      for (const [uri, edits] of perFile) {
        const path = fileURLToPath(uri);
        const text = applyEdits(readFileSync(path, 'utf8'), edits);
        writeFileSync(path, text);
        written.push([path, text]);
        if (path === directFanout) d.change(path, text);
      }
      const directMs = performance.now() - t;
      // The same bytes once more, crash-safe (what the durable-write floors cost; the content stays).
      t = performance.now();
      await durableOneByOne(written);
      const oneByOneMs = performance.now() - t;
      t = performance.now();
      await durableTogether(written);
      const togetherMs = performance.now() - t;
      if (perFile.length !== files + 1)
        throw new Error(`the direct rename of ${current} edited ${perFile.length} files, not ${files + 1}`);
      current = next;
      await sleep(200);
      await fresh(k);
      console.error(
        `[scale/rename] ${name} (${files} files)${i === 0 ? ' warm-up' : ''}: idea-server ${oursMs.toFixed(1)} ms, direct ${directMs.toFixed(1)} ms`,
      );
      if (i === 0) continue;
      ours.push(oursMs);
      plain.push(directMs);
      durable1.push(oneByOneMs);
      durableN.push(togetherMs);
    }
    const o = median(ours);
    const p = median(plain);
    perSize.push({ files, ours: o, direct: p });
    rows.push({
      metric: `edit/rename of a symbol used in ${files} files (${files + 1} written), median of ${RUNS} vs the language server's rename + its edits written with plain fs`,
      value: r2(o),
      unit: 'ms',
      baseline: r2(p),
      ratio: r2(o / p),
      target: '≤ 1.5×',
      ok: o <= 1.5 * p,
    });
    const f1 = median(durable1);
    const fN = median(durableN);
    console.error(
      `[scale/rename] ${files} files: durable writes ${f1.toFixed(1)} ms one by one, ${fN.toFixed(1)} ms together`,
    );
    rows.push(
      {
        metric: `the same rename (${files} files) vs its ${files + 1} files written crash-safe one after another (temp file, fsync, rename, fsync of the folder: write/atomic-file.ts's steps, no journal or history)`,
        value: r2(o),
        unit: 'ms',
        baseline: r2(f1),
        ratio: r2(o / f1),
      },
      {
        metric: `the same rename (${files} files) vs its files written crash-safe together (every temp file written and fsynced concurrently, renamed, one fsync per folder): a floor of an all-or-nothing write`,
        value: r2(o),
        unit: 'ms',
        baseline: r2(fN),
        ratio: r2(o / fN),
      },
    );
  }
  const [s10, s100, s1000] = perSize;
  if (s10 && s100 && s1000) {
    const slope = (a: { files: number; ours: number }, b: { files: number; ours: number }) =>
      (b.ours - a.ours) / (b.files - a.files);
    const dslope = (a: { files: number; direct: number }, b: { files: number; direct: number }) =>
      (b.direct - a.direct) / (b.files - a.files);
    const late = slope(s100, s1000);
    const early = slope(s10, s100);
    rows.push(
      {
        metric: 'edit/rename cost per added file, 100 → 1,000 files (baseline: the same, 10 → 100 files): linear',
        value: r2(late),
        unit: 'ms/file',
        baseline: r2(early),
        ratio: r2(late / early),
        target: '≤ 1.5×',
        ok: late <= 1.5 * early,
      },
      {
        metric: 'direct rename + plain fs, cost per added file 100 → 1,000 (baseline: 10 → 100)',
        value: r2(dslope(s100, s1000)),
        unit: 'ms/file',
        baseline: r2(dslope(s10, s100)),
      },
    );
  }
  const l = load.stop();
  rows.push({ metric: 'load average (1 min) during the rename runs, highest (2 cores)', value: r2(l.max), unit: '' });
  emit({ name: 'scale: rename', rows });
} finally {
  client?.close();
  await direct?.close();
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
