#!/usr/bin/env -S npx tsx
// idea-conformance: run the IDEA conformance suite against any server, or launch ours and run it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CURRENT_VERSION } from '../generated/current';
import { CLIENT_USAGE } from './client/usage';
import { FUZZ_USAGE } from './fuzz/usage';
import { PROFILES, parseProfiles } from './lib/clauses';
import { isNoServer, NO_SERVER_EXIT, serverFor } from './lib/endpoint';
import { readExpectedFailures } from './lib/expected-failures';
import { DEFAULT_FIXTURES, loadCases } from './lib/load';
import { selectCases } from './lib/select';
import { runAgainstServer } from './lib/session';
import { fullTopic, KNOWN_TOPICS } from './lib/topics';
import { version as PACKAGE_VERSION } from './package.json';
import { createReporter } from './reporters';
import type { RunSummary } from './reporters/types';
import { buildFixtureWorkspace, readFixtureWorkspace } from './workspace';

const USAGE = `idea-conformance — conformance suite for IDEA protocol servers and clients

  idea-conformance run --workspace <dir> [--url ws://127.0.0.1:<port>] [--token <t>] [options]
      Run against a server that has the fixture workspace <dir> open (loopback only). The server:
      --url, else IDEA_URL, else the one serving <dir> (the per-user registry, else idea.server.port in
      <dir>/.vscode/settings.json); its token: --token, else IDEA_TOKEN, else the registry's, else the settings'.
  idea-conformance run --launch [--extension <dir>] [options]
      Build a fresh fixture workspace, start our extension in a live VS Code on it, run, tear down.
  idea-conformance workspace <dir>      build the fixture workspace (open it in your server, then run); it is
      a hostile repository on purpose: programs that record being run, in <dir>.traps/ (see H19)
  idea-conformance list [selection]     list the cases that would run
  idea-conformance record --upstream ws://… --workspace <dir> --out <folder> [--port N] [--allow-unknown-topic]
      transparent recording proxy (see conformance/recorder/README.md)
  idea-conformance matrix <report.json | name=report.json>… [--markdown <file>] [--html <file>]
      JSON reports of several servers or builds as one table, cases × implementations by clause (names
      from the reports' implementation, set by --launch or --name; default ./matrix.md and ./matrix.html)
  idea-conformance coverage [--version <x.y.z>] [--report <run.json>] [--json]
      each clause of a version (default the served one, ${CURRENT_VERSION}) with the cases that check it and,
      given a run's JSON report, their verdicts; a clause no client can observe names idea-kit's own tests
      of it (conformance/clause-tests.json; checked to exist only in a clone). Exit 1 when a clause has neither
${FUZZ_USAGE}
${CLIENT_USAGE}
  idea-conformance --help | --version

Selection:  --id <glob> (repeatable)  --topic <topic|area> (repeatable)  --version <x.y.z>  --last-failed
            --profile core,readings,security (default all three: core = the protocol text, readings = our
            readings of what it leaves open, security = hardening; see generated/<v>/protocol.md#clauses)
Verdicts:   --require-topics all|<topic,…>  topics the server must serve (default none: a case needing a
            topic absent from the capabilities is "unimplemented", reported but not failed)
            --assume-version <x.y.z>  apply cases and schemas by this version (default: the newest of the
            handshake's version and the versions that introduced the topics it serves)
Options:    --reporter console|github|html[:<file>]|json[:<file>]|junit[:<file>]|markdown[:<file>] (repeatable; default
            console; files default to ./conformance.html|json|xml|md, markdown to $GITHUB_STEP_SUMMARY when set)
            --name <label> [--build <label>]  what the server is, recorded in the reports (the matrix's column)
            --expected-failures <file>  --state <file> (last-failed state, default ./.idea-conformance/last-run.json)
            --fixtures <dir>  --no-reset (skip destructive cases)  --concurrency N (read-only cases, default 8)  --verbose
            --settle-timeout <ms>  after a reset, how long to wait for the server to show the restored files
            (asked through edit/find; default 3000; 0 = do not wait)
Exit code:  0 when no case of the selected profiles fails a must check or errors, no required topic is
            missing and the expected-failures list has no stale entry (warnings, skips, unimplemented
            and listed expected failures allowed); 1 otherwise; 2 on usage errors; 3 when no server serves
            the workspace or the server cannot be reached (as \`idea\` exits).`;

function fail(msg: string): never {
  process.stderr.write(`idea-conformance: ${msg}\n`);
  process.exit(2);
}

/** An integer option ≥ min, or undefined when not given; anything else is a usage error. */
function intOption(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min)
    fail(`--${name} needs a whole number ≥ ${min}, got "${raw}"`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // (`run --version x.y.z` selects cases: only a leading --version asks for ours.)
  if (command === '--version' || (command === 'record' && rest.includes('--version'))) {
    process.stdout.write(`idea-conformance ${PACKAGE_VERSION}\n`);
    return 0;
  }
  if (command === 'matrix') {
    const { matrixCli } = await import('./matrix-cli');
    return matrixCli(rest);
  }
  if (command === 'record') {
    const { recordCli } = await import('./recorder/cli');
    return recordCli(rest);
  }
  // --help anywhere (`idea-conformance run --help`) is a request for the usage, not a mistake.
  if (!command || command === 'help' || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (command === 'fuzz') {
    // Loaded only for fuzz: fast-check and the generators stay out of every other command's start-up.
    const { fuzzCli } = await import('./fuzz/cli');
    return fuzzCli(rest);
  }
  if (command === 'coverage') {
    const { coverageCli } = await import('./coverage-cli');
    return coverageCli(rest);
  }
  if (command === 'client') {
    const { clientCli } = await import('./client/cli');
    return clientCli(rest);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      workspace: { type: 'string' },
      launch: { type: 'boolean' },
      extension: { type: 'string' },
      id: { type: 'string', multiple: true },
      topic: { type: 'string', multiple: true },
      version: { type: 'string' },
      'last-failed': { type: 'boolean' },
      reporter: { type: 'string', multiple: true },
      'expected-failures': { type: 'string' },
      state: { type: 'string' },
      fixtures: { type: 'string' },
      'no-reset': { type: 'boolean' },
      verbose: { type: 'boolean' },
      concurrency: { type: 'string' },
      'settle-timeout': { type: 'string' },
      profile: { type: 'string' },
      'require-topics': { type: 'string' },
      'assume-version': { type: 'string' },
      name: { type: 'string' },
      build: { type: 'string' },
    },
  });
  if (command === 'workspace') {
    const dir = positionals[0] ?? values.workspace;
    if (!dir) fail('workspace needs a folder');
    const info = buildFixtureWorkspace(dir);
    process.stdout.write(
      `fixture workspace built at ${info.dir} (HEAD ${info.commits.notes}, tag ${info.baseTag}); ` +
        `its ${info.traps!.traps.length} traps record being run in ${info.traps!.markerDir}\n`,
    );
    return 0;
  }
  const fixtures = resolve(values.fixtures ?? DEFAULT_FIXTURES);
  const all = loadCases(fixtures);
  const statePath = resolve(values.state ?? '.idea-conformance/last-run.json');
  let only: Set<string> | undefined;
  if (values['last-failed']) {
    if (!existsSync(statePath)) fail(`--last-failed: no previous run recorded at ${statePath}`);
    only = new Set((JSON.parse(readFileSync(statePath, 'utf8')) as { failed: string[] }).failed);
  }
  let profiles: typeof PROFILES = PROFILES;
  let requireTopics: string[] = [];
  try {
    if (values.profile) profiles = parseProfiles(values.profile);
    if (values['require-topics'])
      requireTopics =
        values['require-topics'] === 'all'
          ? [...KNOWN_TOPICS]
          : values['require-topics'].split(',').map((t) => fullTopic(t.trim()));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values['assume-version'] && !/^\d+\.\d+\.\d+$/.test(values['assume-version']))
    fail(`--assume-version needs x.y.z, got "${values['assume-version']}"`);
  const concurrency = intOption('concurrency', values.concurrency, 1);
  const settleTimeoutMs = intOption('settle-timeout', values['settle-timeout'], 0);
  const cases = selectCases(all, { ids: values.id, topics: values.topic, version: values.version, only, profiles });
  if (command === 'list') {
    for (const lc of cases)
      process.stdout.write(
        `${lc.case.id.padEnd(56)} ${lc.case.since}  ${lc.clause.id.padEnd(4)} ${lc.profile.padEnd(8)} ${lc.level.padEnd(6)} ${lc.case.kind}${lc.case.destructive ? ' destructive' : ''}\n`,
      );
    process.stdout.write(`${cases.length} of ${all.length} cases\n`);
    return 0;
  }
  if (command !== 'run') fail(`unknown command "${command}" (see --help)`);
  if (cases.length === 0) fail('the selection matches no case');
  const reporters = (values.reporter?.length ? values.reporter : ['console']).map((r) => {
    try {
      return createReporter(r, { fixturesDir: fixtures.replace(`${process.cwd()}/`, ''), verbose: values.verbose });
    } catch (e) {
      return fail((e as Error).message);
    }
  });
  const expectedFailures = values['expected-failures'] ? readExpectedFailures(values['expected-failures']) : undefined;
  const common = {
    cases,
    reporters,
    expectedFailures,
    allIds: new Set(all.map((c) => c.case.id)),
    reset: !values['no-reset'],
    concurrency,
    settleTimeoutMs,
    profiles,
    requireTopics,
    assumeVersion: values['assume-version'],
    ...(values.name ? { implementation: { name: values.name, ...(values.build ? { build: values.build } : {}) } } : {}),
  };
  if (values.build && !values.name) fail('--build needs --name');
  let summary: RunSummary;
  if (values.launch) {
    if (values.url) fail('--launch starts its own server; do not pass --url');
    // Loaded only for --launch: the live host brings Playwright and code-server along.
    const { runWithLaunch } = await import('./launch');
    const r = await runWithLaunch({
      ...common,
      extensionDevPath: values.extension,
      workspace: values.workspace,
      log: values.verbose ? (l) => process.stderr.write(`${l}\n`) : undefined,
    });
    process.stderr.write(
      `live host: launch ${(r.launchMs / 1000).toFixed(1)} s, suite ${(r.suiteMs / 1000).toFixed(1)} s, teardown ${(r.teardownMs / 1000).toFixed(1)} s\n`,
    );
    summary = r.summary;
  } else {
    if (!values.workspace) fail('run needs --workspace <dir> (the fixture workspace the server has open) or --launch');
    try {
      readFixtureWorkspace(values.workspace);
    } catch (e) {
      fail((e as Error).message);
    }
    const { url, token } = await serverFor({ url: values.url, token: values.token, workspace: values.workspace }, fail);
    summary = await runAgainstServer({ ...common, url, token, workspace: values.workspace });
  }
  mkdirSync(dirname(statePath), { recursive: true });
  // --last-failed re-runs what needs work: failures, errors and warnings, not the topics the server does not serve.
  writeFileSync(
    statePath,
    `${JSON.stringify(
      {
        at: summary.startedAt,
        failed: summary.results
          .filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'warn' || r.required)
          .map((r) => r.id),
      },
      null,
      2,
    )}\n`,
  );
  return summary.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`idea-conformance: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(isNoServer(err) ? NO_SERVER_EXIT : 2);
  },
);
