// `idea-conformance fuzz`: options, the endpoint by the rule `run` follows (or our extension launched in
// a live VS Code), the console and JSON reports.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Profile, parseProfiles } from '../lib/clauses';
import { serverFor } from '../lib/endpoint';
import { fullTopic } from '../lib/topics';
import { readFixtureWorkspace } from '../workspace';
import { type FuzzOptions, type FuzzSummary, fuzz } from './run';

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

const PROFILE_TITLE: Record<Profile, string> = {
  core: 'core (the protocol text: must)',
  readings: 'readings (our readings of what the text leaves open: should, warnings)',
  security: 'security (hardening: must)',
};

export function consoleReport(s: FuzzSummary): string {
  const secs = s.elapsedMs / 1000;
  const lines = [
    `fuzz: ${s.trials} trials on ${s.topics.length} topics of ${s.url} (protocol ${s.version}) in ${secs.toFixed(1)} s (${(s.trials / Math.max(secs, 0.001)).toFixed(1)} trials/s with shrinking), seed ${s.seed}`,
  ];
  if (s.frameBound)
    lines.push(
      s.frameBound.given
        ? `frame bound: --frame-limit ${s.frameBound.under} bytes`
        : `frame bound: ${s.frameBound.under} bytes answered, ${s.frameBound.over} closed (found in ${s.frameBound.probes} probes, ${s.frameBound.ms} ms)`,
    );
  if (s.restarts) lines.push(`server restarted ${s.restarts} time(s) after it died`);
  for (const profile of ['core', 'readings', 'security'] as const) {
    const group = s.findings.filter((f) => f.profile === profile);
    if (!group.length) continue;
    lines.push(`${PROFILE_TITLE[profile]}:`);
    for (const f of group) {
      lines.push(`✗ ${f.signature}: ${f.problems.map((p) => `${p.detail.slice(0, 600)} [${p.clause}]`).join('; ')}`);
      lines.push(
        `  shrunk (${f.shrinks} steps): ${JSON.stringify({ topic: f.input.topic, params: f.input.params }).slice(0, 400)}`,
      );
      if (f.input.invalid) lines.push(`  breaks ${f.input.invalid.rule} of ${f.input.invalid.field}`);
      if (f.input.duplicate)
        lines.push(
          `  with the same requestId: ${f.input.duplicate.other ? JSON.stringify(f.input.duplicate.other).slice(0, 300) : 'the same request again'}`,
        );
      if (f.bytes !== undefined) lines.push(`  padded to ${f.bytes} bytes`);
      if (f.input.subscription) {
        const { editBefore, unsubscribe, editAfter } = f.input.subscription;
        lines.push(
          `  subscribe,${editBefore ? ' edit/replace,' : ''} unsubscribe ${JSON.stringify(unsubscribe)}${editAfter ? ', edit/replace' : ''}`,
        );
      }
      for (const p of f.problems)
        if (p.lastFrames) for (const l of p.lastFrames) lines.push(`  sent: ${l.slice(0, 300)}`);
      lines.push(
        `  replay: --seed ${s.seed}${f.path ? ` (fast-check seed ${f.seed}, path ${f.path})` : ' (found before the trials)'}${f.file ? `; case ${f.file}` : typeof f.fixture.note === 'string' ? `; ${f.fixture.note}` : ''}`,
      );
    }
  }
  const must = s.findings.filter((f) => f.level === 'must').length;
  lines.push(
    s.findings.length
      ? `${s.findings.length} finding(s): ${must} must, ${s.findings.length - must} should (warnings)`
      : 'no findings',
  );
  return `${lines.join('\n')}\n`;
}

function jsonReport(s: FuzzSummary): string {
  const findings = s.findings.map((f) => ({
    signature: f.signature,
    profile: f.profile,
    level: f.level,
    problems: f.problems,
    input: f.input,
    original: f.original,
    replay: { seed: f.seed, path: f.path },
    shrinks: f.shrinks,
    ...(f.bytes !== undefined ? { bytes: f.bytes } : {}),
    case: f.fixture,
    ...(f.file ? { file: f.file } : {}),
  }));
  return `${JSON.stringify({ ...s, trialsPerSecond: Number((s.trials / Math.max(s.elapsedMs / 1000, 0.001)).toFixed(1)), findings }, null, 2)}\n`;
}

export async function fuzzCli(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      workspace: { type: 'string' },
      launch: { type: 'boolean' },
      extension: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      time: { type: 'string' },
      'shrink-time': { type: 'string' },
      timeout: { type: 'string' },
      topics: { type: 'string', multiple: true },
      'frame-limit': { type: 'string' },
      profile: { type: 'string' },
      out: { type: 'string' },
      reporter: { type: 'string', multiple: true },
    },
  });
  if (values.launch) {
    if (values.url || values.token) usage('--launch starts its own server; do not pass --url or --token');
  } else {
    if (values.extension) usage('--extension goes with --launch');
    if (!values.workspace)
      usage(
        'needs --workspace <dir>: a fixture workspace the server has open (idea-conformance workspace <dir>), or --launch',
      );
    try {
      readFixtureWorkspace(values.workspace);
    } catch (e) {
      usage((e as Error).message);
    }
  }
  const seed = whole('seed', values.seed, -(2 ** 31)) ?? Math.floor(Math.random() * 2 ** 31);
  const runs = whole('runs', values.runs, 1);
  const time = whole('time', values.time, 1);
  if (runs !== undefined && time !== undefined) usage('give --runs or --time, not both');
  const limit = values['frame-limit'];
  const frameLimit =
    limit === undefined || limit === 'find' ? undefined : limit === 'off' ? false : whole('frame-limit', limit, 1);
  let topics: string[] | undefined;
  let profiles: Profile[] | undefined;
  try {
    topics = values.topics?.flatMap((t) => t.split(',')).map((t) => fullTopic(t.trim()));
    profiles = values.profile === undefined ? undefined : parseProfiles(values.profile);
  } catch (e) {
    usage((e as Error).message);
  }
  const reporters = (values.reporter?.length ? values.reporter : ['console']).map((r) => {
    const [kind, file] = r.split(/:(.*)/s) as [string, string | undefined];
    if (kind !== 'console' && kind !== 'json') usage(`--reporter ${r}: fuzz reports to console or json[:<file>]`);
    return { kind, file: kind === 'json' ? resolve(file || 'fuzz.json') : undefined };
  });
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const options = (url: string, token: string | undefined, workspace: string): FuzzOptions => ({
    url,
    token,
    workspace,
    seed,
    ...(runs !== undefined ? { runs } : { timeMs: (time ?? 60) * 1000 }),
    shrinkMs: (whole('shrink-time', values['shrink-time'], 1) ?? 30) * 1000,
    timeoutMs: whole('timeout', values.timeout, 100) ?? 10_000,
    topics,
    outDir: resolve(values.out ?? '.idea-conformance/fuzz-findings'),
    ...(frameLimit !== undefined ? { frameLimit } : {}),
    ...(profiles ? { profiles } : {}),
    log,
  });
  let summary: FuzzSummary;
  if (values.launch) {
    // Loaded only for --launch: the live host brings Playwright and code-server along.
    const { runWithLaunch } = await import('./launch');
    process.stderr.write(`idea-conformance fuzz: seed ${seed}\n`);
    summary = await runWithLaunch({ extensionDevPath: values.extension, workspace: values.workspace, log }, (l) =>
      fuzz({ ...options(l.url, l.token, l.workspace), server: l.server }),
    );
  } else {
    const ep = await serverFor({ url: values.url, token: values.token, workspace: values.workspace! }, usage);
    // Printed first, so a run that is killed can still be replayed.
    process.stderr.write(`idea-conformance fuzz: seed ${seed}\n`);
    summary = await fuzz(options(ep.url, ep.token, values.workspace!));
  }
  for (const r of reporters) {
    if (r.kind === 'console') process.stdout.write(consoleReport(summary));
    else {
      mkdirSync(dirname(r.file!), { recursive: true });
      writeFileSync(r.file!, jsonReport(summary));
    }
  }
  return summary.findings.some((f) => f.level === 'must') ? 1 : 0;
}
