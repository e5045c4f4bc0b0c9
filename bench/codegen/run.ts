// Codegen benchmark: wall time of a full generation and of `--check` (whole CLI processes, as a
// user runs them; target < 2 s each), and the per-frame cost of the generated validators against a
// same-run baseline (JSON.parse of the same frame).
//   npx tsx bench/codegen/run.ts [--runs N]   (default 5)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = join(import.meta.dirname, "..", "..");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

const versionsCount = () => readdirSync(join(ROOT, "spec")).filter((n) => /^v\d/.test(n)).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/**
 * Median wall and CPU time of one process run `node --import tsx <args>` (what `npm run codegen`
 * runs, minus npm and the tsx CLI wrapper process). CPU time is reported by the process itself, so
 * it stays meaningful when other work loads the machine; wall time does not.
 */
function timeProcess(args: string[]): Timing {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--import", "tsx", "--import", join(import.meta.dirname, "cpu-report.mjs"), ...args], {
      cwd: ROOT,
      encoding: "utf8",
    });
    walls.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
    cpus.push(Number(/BENCH_CPU_MS ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN));
  }
  return { wallMs: median(walls), cpuMs: median(cpus) };
}

const CLI = join(ROOT, "codegen", "src", "cli.ts");

type Validate = ((v: unknown) => boolean) & { errors?: unknown };

function nsPerOp(fn: () => void, minMs = 300): number {
  for (let i = 0; i < 2000; i++) fn(); // warm up
  let n = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0n;
  const budget = BigInt(minMs) * 1_000_000n;
  while (elapsed < budget) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    elapsed = process.hrtime.bigint() - t0;
  }
  return Number(elapsed) / n;
}

async function main(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "idea-bench-codegen-"));
  const load = loadavg()[0]!.toFixed(2);
  try {
    const empty = join(out, "empty.ts");
    writeFileSync(empty, "export {};\n");
    const startup = timeProcess([empty]);
    const gen = timeProcess([CLI, "--out", out]);
    const check = timeProcess([CLI, "--check"]);
    const full = timeProcess([CLI, "--check", "--full"]);
    const row = (label: string, t: Timing) =>
      `  ${label.padEnd(22)} wall ${t.wallMs.toFixed(0).padStart(5)} ms · cpu ${t.cpuMs.toFixed(0).padStart(5)} ms  (target < 2000 ms) ${t.wallMs < 2000 ? "OK" : "OVER"}`;
    console.log(`codegen, all ${versionsCount()} spec versions, median of ${RUNS} runs (load avg ${load} when started, ${cpus().length} cores):`);
    console.log(row("full generation", gen));
    console.log(row("--check (manifests)", check));
    console.log(row("--check --full", full));
    console.log(`  baseline: empty process wall ${startup.wallMs.toFixed(0).padStart(5)} ms · cpu ${startup.cpuMs.toFixed(0).padStart(5)} ms (node + tsx start-up, inside every figure)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }

  const v = (await import(pathToFileURL(join(ROOT, "generated", "v0.1.6", "validators.js")).href)) as Record<string, Validate>;
  const request = JSON.stringify({
    topic: "/app/vscode/edit/find",
    requestId: "550e8400-e29b-41d4-a716-446655440000",
    params: { pattern: "searchText", include: "**/*.ts", exclude: "**/node_modules/**", isRegex: false, isCaseSensitive: true },
  });
  const matches = Array.from({ length: 100 }, (_, i) => ({ filePath: `/home/user/project/src/f${i}.ts`, line: i, character: 4, lineText: `const x${i} = searchText;` }));
  const response = JSON.stringify({ topic: "/app/vscode/edit/find", requestId: "550e8400-e29b-41d4-a716-446655440000", result: { matches, totalCount: 100 } });

  const cases: [string, string, (o: Record<string, unknown>) => boolean][] = [
    ["request edit/find (envelope + params)", request, (o) => v.validateRequest!(o) && v.validateEditFindParams!(o.params)],
    ["response edit/find, 100 matches (envelope + result)", response, (o) => v.validateResponseSuccess!(o) && v.validateEditFindResult!(o.result)],
  ];
  console.log("generated validators, per frame (ns; baseline = JSON.parse of the same frame, same run):");
  for (const [name, frame, validate] of cases) {
    let sink = 0;
    const parse = nsPerOp(() => {
      sink += (JSON.parse(frame) as object) ? 1 : 0;
    });
    const parsed = JSON.parse(frame) as Record<string, unknown>;
    const only = nsPerOp(() => {
      if (!validate(parsed)) throw new Error(`${name}: frame does not validate`);
      sink++;
    });
    const both = nsPerOp(() => {
      if (!validate(JSON.parse(frame) as Record<string, unknown>)) throw new Error("invalid");
      sink++;
    });
    console.log(
      `  ${name} (${frame.length} B): parse ${parse.toFixed(0)} · validate ${only.toFixed(0)} (${(only / parse).toFixed(2)}× parse) · parse+validate ${both.toFixed(0)} (${(both / parse).toFixed(2)}×)`,
    );
    if (sink < 0) console.log(sink);
  }
}

await main();
