// npm run codegen [-- --version v0.1.6] [--check [--full]] [--spec <dir>] [--out <dir>] [--fixture-schema <file>]
// Writes generated/<v>/ for every spec/<v>/ (or the one given), generated/versions.ts (every version
// of spec/, whichever were asked for), generated/current.ts (the version spec/served.json names) and
// generated/conformance-fixture.ts (the fixture types, when the fixture schema exists). --check writes nothing: it exits 1 and names every file that
// differs, is missing, or should not be there. It first tries the manifests (hashes only); --full
// always regenerates in memory and compares.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readReleases, releaseOf } from '@idea-kit/spec-lib/releases';
import { SERVED_FILE, servedVersion } from '@idea-kit/spec-lib/served';
import { loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { compareVersions, versionFolder } from '@idea-kit/spec-lib/version';
import { annotationsHash } from './annotations';
import { FIXTURE_TYPES_FILE, fixtureTypesConfirmed } from './gen-fixture-types';
import {
  CURRENT_FILE,
  generateCurrentFile,
  generateLatestFile,
  generateVersionsFile,
  LATEST_FILE,
  VERSIONS_FILE,
} from './gen-versions';
import { earlierSpecsHash, manifestConfirms } from './manifest';

interface Args {
  specRoot: string;
  outRoot: string;
  versions: string[] | undefined;
  /** conformance/fixture.schema.json (cwd-relative); skipped when absent. */
  fixtureSchema: string;
  check: boolean;
  full: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    specRoot: 'spec',
    outRoot: 'generated',
    versions: undefined,
    fixtureSchema: 'conformance/fixture.schema.json',
    check: false,
    full: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--check') args.check = true;
    else if (a === '--full') args.full = true;
    else if (a === '--spec') args.specRoot = value();
    else if (a === '--out') args.outRoot = value();
    else if (a === '--fixture-schema') args.fixtureSchema = value();
    else if (a === '--version') (args.versions ??= []).push(versionFolder(value()));
    else
      throw new Error(
        `unknown argument ${a} (use --version X, --check, --full, --spec DIR, --out DIR, --fixture-schema FILE)`,
      );
  }
  return args;
}

function filesIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => statSync(join(dir, f)).isFile())
        .sort()
    : [];
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const specRoot = resolve(args.specRoot);
  const outRoot = resolve(args.outRoot);
  const allFolders = specVersions(specRoot).map(versionFolder);
  const versions = args.versions ?? allFolders;
  if (versions.length === 0) throw new Error(`no spec versions under ${specRoot}`);
  const extraDirs =
    !args.versions && existsSync(outRoot)
      ? readdirSync(outRoot)
          .sort()
          .filter((name) => !versions.includes(name) && statSync(join(outRoot, name)).isDirectory())
      : [];
  // A spec root without served.json (a protocol fork, a test's scratch spec) has no programs to serve
  // it: no current.ts then.
  const served = existsSync(join(specRoot, SERVED_FILE)) ? servedVersion(specRoot) : undefined;
  // Version-independent outputs: path relative to the output root → content.
  const shared = new Map<string, string>([
    [VERSIONS_FILE, generateVersionsFile(allFolders)],
    [
      LATEST_FILE,
      generateLatestFile(allFolders, new Set(readReleases(specRoot).releases.map((r) => versionFolder(r.version)))),
    ],
  ]);
  if (served) shared.set(CURRENT_FILE, generateCurrentFile(versionFolder(served), loadSpec(specRoot, served).clauses));
  const strayCurrent = !served && existsSync(join(outRoot, CURRENT_FILE));
  const sharedProblems = (): string[] =>
    [...shared].flatMap(([name, content]) => {
      const path = join(outRoot, name);
      const old = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      return old === content ? [] : [`${old === undefined ? 'missing' : 'differs'}: ${join(args.outRoot, name)}`];
    });
  const fixtureSchema = existsSync(resolve(args.fixtureSchema)) ? resolve(args.fixtureSchema) : undefined;
  if (args.check && !args.full && extraDirs.length === 0 && !strayCurrent) {
    // Each version's output also reads the earlier folders (per-field @since): their hashes count too.
    const all = allFolders.map((v): [string, string] => [v, loadSpec(specRoot, v).hash]);
    const hashOf = (v: string) => all.find(([f]) => f === v)?.[1] ?? loadSpec(specRoot, v).hash;
    const earlier = (v: string) => earlierSpecsHash(all.filter(([f]) => compareVersions(f, v) < 0));
    const annotations = annotationsHash(specRoot);
    const confirmed =
      versions.every((v) =>
        manifestConfirms(join(outRoot, v), hashOf(v), earlier(v), releaseOf(specRoot, v)?.released, annotations),
      ) &&
      sharedProblems().length === 0 &&
      (!fixtureSchema || fixtureTypesConfirmed(join(outRoot, FIXTURE_TYPES_FILE), fixtureSchema, args.fixtureSchema));
    if (confirmed) {
      console.log(`generated code is up to date (${versions.join(', ')}; manifests)`);
      return 0;
    }
  }
  // Loaded only now: the fast path above needs no schema compiler.
  const { generateVersion } = await import('./generate');
  if (fixtureSchema) {
    const { generateFixtureTypes } = await import('./gen-fixture-types');
    shared.set(FIXTURE_TYPES_FILE, await generateFixtureTypes(fixtureSchema, args.fixtureSchema));
  }
  const problems: string[] = [];
  let written = 0;
  for (const v of versions) {
    const files = await generateVersion(specRoot, v);
    const dir = join(outRoot, v);
    const present = filesIn(dir);
    for (const [name, content] of files) {
      const path = join(dir, name);
      const old = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      if (old === content) continue;
      if (args.check) problems.push(`${old === undefined ? 'missing' : 'differs'}: ${join(args.outRoot, v, name)}`);
      else {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path, content);
        written++;
      }
    }
    for (const name of present) {
      if (files.has(name)) continue;
      if (args.check) problems.push(`extra: ${join(args.outRoot, v, name)}`);
      else rmSync(join(dir, name));
    }
  }
  if (args.check) problems.push(...sharedProblems());
  else {
    for (const [name, content] of shared) {
      const path = join(outRoot, name);
      if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
      mkdirSync(outRoot, { recursive: true });
      writeFileSync(path, content);
      written++;
    }
  }
  for (const name of extraDirs) problems.push(`extra: ${join(args.outRoot, name)}/ (no spec/${name})`);
  if (strayCurrent) problems.push(`extra: ${join(args.outRoot, CURRENT_FILE)} (no ${SERVED_FILE} in ${args.specRoot})`);
  if (args.check) {
    if (problems.length > 0) {
      console.error(`generated code is out of date (run \`npm run codegen\`):\n  ${problems.join('\n  ')}`);
      return 1;
    }
    console.log(`generated code is up to date (${versions.join(', ')})`);
    return 0;
  }
  for (const p of problems) console.warn(`warning: ${p}`);
  if (served && !releaseOf(specRoot, served))
    console.warn(`note: spec/served.json serves ${served}, which spec/releases.json does not list as released`);
  console.log(`codegen: ${versions.join(', ')} → ${args.outRoot} (${written} file(s) written)`);
  return 0;
}

const isMain = process.argv[1] !== undefined && /cli\.ts$/.test(process.argv[1]);
if (isMain) {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`codegen failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
