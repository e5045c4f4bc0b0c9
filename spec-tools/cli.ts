#!/usr/bin/env -S npx tsx
// idea-spec: the protocol maintainers' CLI (diff, bump, changelog, release, amend, check-frozen, derive-history).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestRelease, readReleases } from '@idea-kit/spec-lib/releases';
import { loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { bump } from './bump';
import { updateChangelog } from './changelog';
import { type Format, formatReport, isFormat } from './diff/format';
import { failsAt, isLevel, type Level } from './diff/types';
import { diffVersions } from './diff/version-diff';
import { checkFrozen } from './frozen';
import { writeHistory } from './history/write';
import { version as PACKAGE_VERSION } from './package.json';
import { codegenMissing, regenerate } from './regenerate';
import { amendRelease, recordRelease } from './release';
import { defaultRoot, specDir, writableRoot } from './spec-repo';

/** The pull-request question: what does the work in progress change against the last release? */
function defaultDiffPair(spec: string): [string, string] {
  const newest = specVersions(spec).at(-1);
  const released = newestRelease(readReleases(spec));
  if (!newest || !released) throw new UsageError('diff needs <from> <to>: no released version to compare with');
  return [released, newest];
}

const USAGE = `usage: idea-spec <command> [options]

  diff [<from> <to>] [--format text|markdown|json|junit] [--fail-on ERR|WARN|INFO]
        classify every change between two versions (exit 1 when a change is at --fail-on or worse);
        without versions: the newest released version against the newest version
  bump [<version>] [--no-codegen] [--force]
        create the next version from the latest released one (only $ids and the version change),
        generate its code, update the changelog
  changelog [--check]        regenerate docs/CHANGELOG.md (--check: exit 1 when it is out of date)
  release <version> [--date YYYY-MM-DD] [--no-codegen]
        freeze a version: its date (default today, UTC) and sha256 into spec/releases.json (it needs
        spec/v<version>/SUMMARY.md); regenerates its code and the changelog
  amend <version> --reason "…" [--allow-semantic] [--date YYYY-MM-DD] [--no-codegen]
        record an edit of a released folder (errata): only annotations (description, title,
        examples, $comment) unless --allow-semantic; regenerates its code and the changelog
  check-frozen               exit 1 when a released folder changed or a release was dropped from
                             spec/releases.json's git history
  derive-history [--force]   rebuild spec/v0.1.0 … v0.1.5 from spec/v0.1.6 and the changelog facts

common: --root <dir> (repository root; default: the one around the working directory, else the spec
        this tool comes with, which only diff and the checks read: nothing is written inside node_modules)
        --no-codegen (bump, release, amend): skip the code generation, for a repository without
        idea-kit's codegen; checked before anything is written
        --help, --version`;

interface Args {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['format', 'fail-on', 'root', 'date', 'reason']);

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else flags.set(name, true);
  }
  return { positional, flags };
}

class UsageError extends Error {}

/** Commands that write to the spec repository (changelog only without --check). */
const WRITERS = new Set(['bump', 'changelog', 'release', 'amend', 'derive-history']);

/** Whether to run codegen; when so, refuses (before anything is written) a repository without one. */
function codegenWanted(args: Args, root: string): boolean {
  if (args.flags.has('no-codegen')) return false;
  const missing = codegenMissing(root);
  if (missing) throw new Error(missing);
  return true;
}

function flag(args: Args, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export async function main(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const args = parseArgs(argv);
  if (args.flags.has('version')) {
    out(`idea-spec ${PACKAGE_VERSION}\n`);
    return 0;
  }
  if (args.flags.has('help') || argv.includes('-h')) {
    out(`${USAGE}\n`);
    return 0;
  }
  const [command, ...rest] = args.positional;
  const root = flag(args, 'root') ?? defaultRoot();
  if (command !== undefined && WRITERS.has(command) && !(command === 'changelog' && args.flags.has('check')))
    writableRoot(root, command);
  const spec = specDir(root);
  switch (command) {
    case 'diff': {
      if (rest.length === 0) rest.push(...defaultDiffPair(spec));
      if (rest.length !== 2) throw new UsageError('diff needs <from> <to> (or no version at all)');
      const format = flag(args, 'format') ?? 'text';
      if (!isFormat(format)) throw new UsageError(`unknown --format ${format}`);
      const failOnRaw = (flag(args, 'fail-on') ?? 'ERR').toUpperCase();
      if (!isLevel(failOnRaw)) throw new UsageError(`unknown --fail-on ${failOnRaw} (ERR, WARN or INFO)`);
      const report = diffVersions(loadSpec(spec, rest[0]!), loadSpec(spec, rest[1]!));
      out(formatReport(report, format as Format, failOnRaw as Level));
      return failsAt(report.changes, failOnRaw) ? 1 : 0;
    }
    case 'bump': {
      const result = await bump(root, {
        version: rest[0],
        codegen: !args.flags.has('no-codegen'),
        force: args.flags.has('force'),
        log: out,
      });
      out(`created spec/v${result.version} from v${result.from}\n`);
      return 0;
    }
    case 'changelog': {
      const check = args.flags.has('check');
      const r = updateChangelog(root, check);
      if (check && !r.upToDate) {
        out(`${r.path} is out of date: run idea-spec changelog\n`);
        return 1;
      }
      out(check ? `${r.path} is up to date\n` : `wrote ${r.path}\n`);
      return 0;
    }
    case 'release': {
      if (rest.length !== 1) throw new UsageError('release needs <version>');
      const codegen = codegenWanted(args, root);
      const r = recordRelease(spec, rest[0]!, { date: flag(args, 'date') });
      out(`released ${r.version} (${r.released}) sha256 ${r.sha256}\n`);
      for (const line of regenerate(root, r.version, { codegen })) out(`${line}\n`);
      return 0;
    }
    case 'amend': {
      if (rest.length !== 1) throw new UsageError('amend needs <version>');
      const reason = flag(args, 'reason');
      if (reason === undefined) throw new UsageError('amend needs --reason "…"');
      const codegen = codegenWanted(args, root);
      const { entry, amendment } = amendRelease(spec, rest[0]!, {
        reason,
        allowSemantic: args.flags.has('allow-semantic'),
        date: flag(args, 'date'),
      });
      out(`amended ${entry.version}: sha256 ${amendment.previousSha256} → ${entry.sha256}\n`);
      for (const line of regenerate(root, entry.version, { codegen })) out(`${line}\n`);
      return 0;
    }
    case 'check-frozen': {
      const { problems, notes } = checkFrozen(spec);
      for (const p of problems) out(`FROZEN ${p.message}\n`);
      for (const n of notes) out(`${n}\n`);
      if (problems.length === 0) out('released versions unchanged\n');
      return problems.length === 0 ? 0 : 1;
    }
    case 'derive-history': {
      for (const line of writeHistory(spec, { force: args.flags.has('force') })) out(`${line}\n`);
      return 0;
    }
    case undefined:
    case 'help':
      out(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

// Run as a program (also through npm's bin link, hence realpath), not when imported by the tests.
if (
  process.argv[1] !== undefined &&
  realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))
) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      const usage = err instanceof UsageError;
      process.stderr.write(
        `idea-spec: ${err instanceof Error ? err.message : String(err)}\n${usage ? `\n${USAGE}\n` : ''}`,
      );
      process.exit(2);
    },
  );
}
