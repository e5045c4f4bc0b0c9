// `idea-conformance fuzz`: options, the endpoint by the rule `run` follows, the console and JSON reports.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serverFor } from '../lib/endpoint';
import { fullTopic } from '../lib/topics';
import { readFixtureWorkspace } from '../workspace';
import { type FuzzSummary, fuzz } from './run';

export { FUZZ_USAGE } from './usage';

function usage(msg: string): never {
  process.stderr.write(`idea-conformance fuzz: ${msg}\n`);
  process.exit(2);
}

function whole(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min)
    usage(`--${name} needs a whole number ≥ ${min}, got "${raw}"`);
  return n;
}

function consoleReport(s: FuzzSummary): string {
  const lines = [
    `fuzz: ${s.trials} trials on ${s.topics.length} topics of ${s.url} (protocol ${s.version}) in ${(s.elapsedMs / 1000).toFixed(1)} s, seed ${s.seed}`,
  ];
  for (const f of s.findings) {
    lines.push(`✗ ${f.signature}: ${f.problems.map((p) => `${p.detail} [${p.clause}]`).join('; ')}`);
    lines.push(
      `  shrunk (${f.shrinks} steps): ${JSON.stringify({ topic: f.input.topic, params: f.input.params }).slice(0, 400)}`,
    );
    if (f.input.invalid) lines.push(`  breaks ${f.input.invalid.rule} of ${f.input.invalid.field}`);
    lines.push(
      `  replay: --seed ${s.seed} (fast-check seed ${f.seed}, path ${f.path})${f.file ? `; case ${f.file}` : ''}`,
    );
  }
  lines.push(s.findings.length ? `${s.findings.length} finding(s)` : 'no findings');
  return `${lines.join('\n')}\n`;
}

function jsonReport(s: FuzzSummary): string {
  const findings = s.findings.map((f) => ({
    signature: f.signature,
    problems: f.problems,
    input: f.input,
    original: f.original,
    replay: { seed: f.seed, path: f.path },
    shrinks: f.shrinks,
    case: f.fixture,
    ...(f.file ? { file: f.file } : {}),
  }));
  return `${JSON.stringify({ ...s, findings }, null, 2)}\n`;
}

export async function fuzzCli(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      workspace: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      time: { type: 'string' },
      'shrink-time': { type: 'string' },
      timeout: { type: 'string' },
      topics: { type: 'string', multiple: true },
      out: { type: 'string' },
      reporter: { type: 'string', multiple: true },
    },
  });
  if (!values.workspace)
    usage('needs --workspace <dir>: a fixture workspace the server has open (idea-conformance workspace <dir>)');
  try {
    readFixtureWorkspace(values.workspace);
  } catch (e) {
    usage((e as Error).message);
  }
  const seed = whole('seed', values.seed, -(2 ** 31)) ?? Math.floor(Math.random() * 2 ** 31);
  const runs = whole('runs', values.runs, 1);
  const time = whole('time', values.time, 1);
  if (runs !== undefined && time !== undefined) usage('give --runs or --time, not both');
  let topics: string[] | undefined;
  try {
    topics = values.topics?.flatMap((t) => t.split(',')).map((t) => fullTopic(t.trim()));
  } catch (e) {
    usage((e as Error).message);
  }
  const reporters = (values.reporter?.length ? values.reporter : ['console']).map((r) => {
    const [kind, file] = r.split(/:(.*)/s) as [string, string | undefined];
    if (kind !== 'console' && kind !== 'json') usage(`--reporter ${r}: fuzz reports to console or json[:<file>]`);
    return { kind, file: kind === 'json' ? resolve(file || 'fuzz.json') : undefined };
  });
  const ep = await serverFor({ url: values.url, token: values.token, workspace: values.workspace }, usage);
  // Printed first, so a run that is killed can still be replayed.
  process.stderr.write(`idea-conformance fuzz: seed ${seed}\n`);
  const summary = await fuzz({
    url: ep.url,
    token: ep.token,
    workspace: values.workspace,
    seed,
    ...(runs !== undefined ? { runs } : { timeMs: (time ?? 60) * 1000 }),
    shrinkMs: (whole('shrink-time', values['shrink-time'], 1) ?? 30) * 1000,
    timeoutMs: whole('timeout', values.timeout, 100) ?? 10_000,
    topics,
    outDir: resolve(values.out ?? '.idea-conformance/fuzz-findings'),
    log: (l) => process.stderr.write(`${l}\n`),
  });
  for (const r of reporters) {
    if (r.kind === 'console') process.stdout.write(consoleReport(summary));
    else {
      mkdirSync(dirname(r.file!), { recursive: true });
      writeFileSync(r.file!, jsonReport(summary));
    }
  }
  return summary.findings.length ? 1 : 0;
}
