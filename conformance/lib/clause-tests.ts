// idea-kit's own tests of the clauses no fixture case checks (conformance/clause-tests.json). The data is
// bundled into the package, which lists the names only; in a clone each named file must exist and carry
// the clause's marker where it tests it, so renaming or deleting a test breaks coverage instead of
// leaving a dead name behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersions, isVersion, normalizeVersion } from '@idea-kit/spec-lib/version';
import data from '../clause-tests.json';

/** Clause id → repository-relative test files. */
export type NamedTests = Readonly<Record<string, readonly string[]>>;

export const CLAUSE_TESTS_FILE = 'conformance/clause-tests.json';

/** Test files under test/ only, no `..`: the names are read from the clone, never from elsewhere. */
const TEST_PATH = /^test\/(?:[\w.-]+\/)*[\w.-]+\.test\.ts$/;

/** Checks the file's shape: {"versions": {"x.y.z": {"<clause id>": ["test/….test.ts", …]}}}. */
export function parseClauseTests(raw: unknown, where = CLAUSE_TESTS_FILE): ReadonlyMap<string, NamedTests> {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const versions = isObj(raw) ? raw.versions : undefined;
  if (!isObj(versions)) throw new Error(`${where}: expected {"versions": {"<x.y.z>": {…}}}`);
  const out = new Map<string, NamedTests>();
  for (const [v, tests] of Object.entries(versions)) {
    if (!isVersion(v) || !isObj(tests)) throw new Error(`${where}: "${v}" is not a version with an object of clauses`);
    for (const [id, files] of Object.entries(tests))
      if (
        !/^[TRH]\d+$/.test(id) ||
        !Array.isArray(files) ||
        files.length === 0 ||
        !files.every((f) => typeof f === 'string' && TEST_PATH.test(f) && !f.split('/').includes('..'))
      )
        throw new Error(`${where}: ${v} ${id} needs a non-empty list of test/….test.ts paths`);
    out.set(normalizeVersion(v), tests as NamedTests);
  }
  return out;
}

export const CLAUSE_TESTS = parseClauseTests(data);

/** The named tests of `version`: its own entry, else the newest older one's (as fixtures are found). */
export function namedTestsFor(version: string, table = CLAUSE_TESTS): NamedTests {
  const key = [...table.keys()]
    .filter((v) => compareVersions(v, version) <= 0)
    .sort(compareVersions)
    .at(-1);
  return key === undefined ? {} : table.get(key)!;
}

/** What a named test carries where it tests the clause: a comment `// clause H8` (H1 is not H10's). */
export function hasMarker(text: string, id: string): boolean {
  return new RegExp(`\\bclause ${id}(?![0-9A-Za-z])`).test(text);
}

/** What is wrong with a named test of a clause; undefined when it exists and carries the marker. */
export type NamedTestCheck = (file: string, id: string) => string | undefined;

/** Checks named tests against the clone at `root` (each file read once). */
export function namedTestChecker(root: string): NamedTestCheck {
  const texts = new Map<string, string | undefined>();
  return (file, id) => {
    if (!texts.has(file)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        text = undefined;
      }
      texts.set(file, text);
    }
    const text = texts.get(file);
    if (text === undefined) return 'no such file';
    return hasMarker(text, id) ? undefined : `no "// clause ${id}" marker in it`;
  };
}
