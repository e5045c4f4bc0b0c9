// The strict schema lint (spec-lib/lint.ts): clean on every committed version, and each rule
// catches its own planted problem with the file, JSON pointer and rule; codegen stops on it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINT_RULES, type LintProblem, type LintRule, lintSpec } from '@idea-kit/spec-lib/lint';
import { type JsonSchema, loadSpec, type Spec, specVersions } from '@idea-kit/spec-lib/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../codegen/src/cli';

const ROOT = join(import.meta.dirname, '..', '..');
const SPEC = join(ROOT, 'spec');
const base = loadSpec(SPEC, 'v0.1.6');

/** A copy of v0.1.6 with `edit` applied to its documents (by path) and index. */
function withEdit(edit: (doc: (path: string) => JsonSchema, index: Spec['index']) => void): Spec {
  const docs = structuredClone(base.docs);
  const index = structuredClone(base.index);
  edit((path) => docs.find((d) => d.path === path)!.schema, index);
  return {
    ...base,
    docs,
    index,
    byPath: new Map(docs.map((d) => [d.path, d])),
    byId: new Map(docs.map((d) => [d.id, d])),
  };
}

const EF = 'topics/edit-find.params.schema.json';
const props = (s: JsonSchema) => s.properties as Record<string, JsonSchema>;
const defs = (s: JsonSchema) => s.$defs as Record<string, JsonSchema>;
const lint = (spec: Spec) => lintSpec(spec, { specRoot: SPEC });
const covered = new Set<LintRule>();

/** Asserts that `spec` has exactly the problems `expected` (file, pointer, rule) and remembers the rules. */
function expectProblems(spec: Spec, expected: Omit<LintProblem, 'message'>[]): LintProblem[] {
  const got = lint(spec);
  expect(got.map(({ file, pointer, rule }) => ({ file, pointer, rule }))).toEqual(expected);
  for (const p of expected) covered.add(p.rule);
  return got;
}

describe('spec lint', () => {
  it.each(specVersions(SPEC))('%s is clean', (v) => {
    expect(lint(loadSpec(SPEC, v))).toEqual([]);
  });

  it('meta-schema: a schema that is not JSON Schema', () => {
    const s = withEdit((doc) => void (props(doc('topics/nav-symbols.params.schema.json')).query = { type: 42 }));
    expectProblems(s, [
      { file: 'topics/nav-symbols.params.schema.json', pointer: '/properties/query/type', rule: 'meta-schema' },
    ]);
  });

  it('root-annotations: $id off its path, description missing', () => {
    const s = withEdit((doc) => {
      doc(EF).$id = 'https://idea-protocol.invalid/spec/v0.1.6/topics/find.params.schema.json';
      delete doc(EF).description;
    });
    expectProblems(s, [
      { file: EF, pointer: '/$id', rule: 'root-annotations' },
      { file: EF, pointer: '', rule: 'root-annotations' },
    ]);
  });

  it('ref: a $ref to a definition that does not exist', () => {
    const s = withEdit((doc) => void (props(doc(EF)).extra = { $ref: '../defs.schema.json#/$defs/Nope' }));
    const [p] = expectProblems(s, [{ file: EF, pointer: '/properties/extra/$ref', rule: 'ref' }]);
    expect(p!.message).toContain('unsupported $ref');
  });

  it('union-type: more than one type besides null (nullable types stay allowed)', () => {
    const s = withEdit((doc) => {
      props(doc(EF)).limit = { type: ['string', 'integer', 'null'] };
      props(doc(EF)).label = { type: ['string', 'null'] };
    });
    expectProblems(s, [{ file: EF, pointer: '/properties/limit/type', rule: 'union-type' }]);
  });

  it('format: any format (the validators carry no format runtime)', () => {
    const s = withEdit((doc) => void (defs(doc('defs.schema.json')).IsoDateTime!.format = 'date-time'));
    const [p] = expectProblems(s, [{ file: 'defs.schema.json', pointer: '/$defs/IsoDateTime/format', rule: 'format' }]);
    expect(p!.message).toContain('pattern');
  });

  it('ajv-strict: what only strict ajv rejects (an unknown keyword), located', () => {
    const s = withEdit((doc) => void (props(doc(EF)).pattern!.minLen = 1));
    const [p] = expectProblems(s, [{ file: EF, pointer: '/properties/pattern/minLen', rule: 'ajv-strict' }]);
    expect(p!.message).toMatch(/unknown keyword: "minLen"/);
  });

  it('examples-count: none, or more than three', () => {
    const s = withEdit((doc) => {
      delete doc(EF).examples;
      const r = doc('topics/edit-find.result.schema.json');
      r.examples = [
        ...(r.examples as unknown[]),
        ...(r.examples as unknown[]),
        ...(r.examples as unknown[]),
        ...(r.examples as unknown[]),
      ];
    });
    expectProblems(s, [
      { file: EF, pointer: '/examples', rule: 'examples-count' },
      { file: 'topics/edit-find.result.schema.json', pointer: '/examples', rule: 'examples-count' },
    ]);
  });

  it('examples-valid: a root example, a $defs example and a property example that fail their schema', () => {
    const s = withEdit((doc) => {
      (doc(EF).examples as { pattern: string }[])[1]!.pattern = '';
      defs(doc('defs.schema.json')).Glob!.examples = ['**/*.ts', 7];
      props(doc(EF)).isRegex!.examples = ['yes'];
    });
    expectProblems(s, [
      { file: 'defs.schema.json', pointer: '/$defs/Glob/examples/1', rule: 'examples-valid' },
      { file: EF, pointer: '/examples/1', rule: 'examples-valid' },
      { file: EF, pointer: '/properties/isRegex/examples/0', rule: 'examples-valid' },
    ]);
  });

  it('default-valid: a default its own schema rejects', () => {
    const s = withEdit((doc) => void (props(doc(EF)).maxMatches = { type: 'integer', minimum: 1, default: 0 }));
    expectProblems(s, [{ file: EF, pointer: '/properties/maxMatches/default', rule: 'default-valid' }]);
  });

  it('default-description: a changed default the description still names, and a described default the schema lacks', () => {
    const s = withEdit((doc) => {
      props(doc(EF)).include!.default = 'src/**';
      delete props(doc(EF)).isRegex!.default;
    });
    const got = expectProblems(s, [
      { file: EF, pointer: '/properties/include/description', rule: 'default-description' },
      { file: EF, pointer: '/properties/isRegex/description', rule: 'default-description' },
    ]);
    expect(got[0]!.message).toBe('description names default **/* but the schema\'s default is "src/**"');
    expect(got[1]!.message).toBe('description names default false but the schema has no default');
  });

  it('defs-title: a $defs entry titled other than its key', () => {
    const s = withEdit((doc) => void (defs(doc('defs.schema.json')).Glob!.title = 'GlobPattern'));
    expectProblems(s, [{ file: 'defs.schema.json', pointer: '/$defs/Glob/title', rule: 'defs-title' }]);
  });

  it("unique-titles: a nested title that repeats a root's", () => {
    const s = withEdit(
      (doc) => void (props(doc('topics/edit-find.result.schema.json')).matches!.title = 'EditFindParams'),
    );
    const [p] = expectProblems(s, [
      { file: 'topics/edit-find.result.schema.json', pointer: '/properties/matches/title', rule: 'unique-titles' },
    ]);
    expect(p!.message).toContain(`already used at ${EF}#`);
  });

  it('open-topics: a params schema that refuses unknown fields', () => {
    const s = withEdit((doc) => void (doc(EF).additionalProperties = false));
    expectProblems(s, [{ file: EF, pointer: '/additionalProperties', rule: 'open-topics' }]);
  });

  it('index: a method named twice, a future since, an unknown error, codes out of step with the enum; a renamed method is fine', () => {
    const s = withEdit((_doc, index) => {
      index.topics[3]!.method = 'navFindReferences'; // a rename: WARN in the diff, allowed here
      index.topics[1]!.method = index.topics[0]!.method;
      index.topics[1]!.since = '0.2.0';
      index.topics[2]!.errors = ['NOPE'];
      index.errorCodes = index.errorCodes.slice(1);
    });
    expectProblems(s, [
      { file: 'index.json', pointer: '/errorCodes', rule: 'index' },
      { file: 'index.json', pointer: '/topics/1/method', rule: 'index' },
      { file: 'index.json', pointer: '/topics/1/since', rule: 'index' },
      { file: 'index.json', pointer: '/topics/2/errors', rule: 'index' },
    ]);
  });

  it('every rule has a failing case above', () => {
    expect([...covered].sort()).toEqual(Object.keys(LINT_RULES).sort());
  });
});

describe('codegen runs the lint first', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'idea-lint-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('fails with file, pointer and rule on a union type, writing nothing', async () => {
    cpSync(join(SPEC, 'v0.1.6'), join(tmp, 'spec', 'v0.1.6'), { recursive: true });
    cpSync(join(SPEC, 'index.schema.json'), join(tmp, 'spec', 'index.schema.json'));
    const path = join(tmp, 'spec', 'v0.1.6', EF);
    const schema = JSON.parse(readFileSync(path, 'utf8')) as JsonSchema;
    props(schema).limit = { type: ['string', 'integer', 'null'] };
    writeFileSync(path, JSON.stringify(schema));
    const args = ['--spec', join(tmp, 'spec'), '--out', join(tmp, 'out'), '--fixture-schema', join(tmp, 'none.json')];
    await expect(run(args)).rejects.toThrow(
      `${join(tmp, 'spec', 'v0.1.6', EF)}#/properties/limit/type: [union-type] type ["string","integer","null"] is a union`,
    );
    expect(() => readFileSync(join(tmp, 'out', 'v0.1.6', 'types.ts'))).toThrow();
  });
});
