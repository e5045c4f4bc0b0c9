// The strict schema lint: every rule a spec version must satisfy before anything is generated from
// it. `generateVersion` runs it first and the spec tests call it, so a schema the tests would reject
// never gets through `npm run codegen` (one place for the rules, one precise message per problem:
// file, JSON pointer, rule).

import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import { RefResolver } from './refs';
import { escapePointer as esc, schemaNodes } from './schema-walk';
import { ID_BASE, type JsonSchema, type Spec } from './spec';
import { compareVersions } from './version';

export interface LintProblem {
  /** Path relative to spec/<v>/ ("topics/edit-find.params.schema.json", "index.json"). */
  file: string;
  /** JSON pointer inside the file ("" = the document). */
  pointer: string;
  rule: LintRule;
  message: string;
}

export const LINT_RULES = {
  'meta-schema': 'every schema is valid draft 2020-12 JSON Schema',
  'root-annotations':
    "every schema document has $schema (draft 2020-12), $id (its path under the version's base), title and description",
  ref: 'every $ref points at a root schema or a $defs entry of the version',
  'union-type': '`type` lists at most one type besides "null" (ajv strictTypes); use anyOf for real unions',
  format:
    '`format` is not used: ajv supports no format without the ajv-formats runtime, which the generated validators do not import; use `pattern`',
  'ajv-strict':
    'every schema compiles with ajv in strict mode (strictTypes, strictTuples, strictRequired, no unknown keywords)',
  'examples-count': 'every message and topic schema has 1 to 3 examples',
  'examples-valid': 'every example is valid against the schema beside it',
  'default-valid': 'every default is valid against the schema beside it',
  'default-description': 'a description that names a default ("default: X") names the schema\'s `default`',
  'defs-title': "every $defs entry's title is its key",
  'unique-titles': 'titles are unique within a version (one generated type each)',
  'open-topics': 'no params or result schema sets additionalProperties: false (unknown fields are accepted)',
  index:
    'index.json agrees with index.schema.json, its folder and the error-code schema; topics, methods and type names are unique, schema files are named after the topic and titled after the typeName',
} as const;
export type LintRule = keyof typeof LINT_RULES;

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The ajv every consumer of the spec uses to compile it: the generator (with code options), the spec
 * tests and the lint. Strict in every respect; schemas are meta-checked once by the lint instead.
 */
export function createStrictAjv(code?: { esm: boolean; source: boolean; lines: boolean; optimize: boolean }): Ajv2020 {
  return new Ajv2020({
    strict: true,
    allErrors: false,
    useDefaults: false,
    validateSchema: false,
    ...(code ? { code } : {}),
  });
}

/** An ajv holding every schema of the version, addressable by $id. */
export function specAjv(spec: Spec, ajv: Ajv2020 = createStrictAjv()): Ajv2020 {
  for (const doc of spec.docs) if (!ajv.schemas[doc.id]) ajv.addSchema(doc.schema, doc.id);
  return ajv;
}

let metaAjv: Ajv2020 | undefined;

/**
 * "(default: **\/*)", "default: false", "(default: \"all\")": the value a description says is the
 * default. Conditional wording ("default 0 when toIndex is given") has no colon and is not a claim
 * about the schema's `default`.
 */
function describedDefault(description: string): string | undefined {
  const m = /\bdefault:\s*(.+?)\s*(?:\)|\.(?:\s|$)|;|,\s|$)/i.exec(description);
  return m ? m[1] : undefined;
}

function sameValue(text: string, value: unknown): boolean {
  if (typeof value === 'string' && text === value) return true; // (default: **/*)
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * All problems of one spec version (empty = clean). `specRoot` locates spec/index.schema.json for the
 * index rule; `ajv` may be an instance the caller goes on using (the generator), schemas are added.
 */
export function lintSpec(spec: Spec, options: { specRoot?: string; ajv?: Ajv2020 } = {}): LintProblem[] {
  const problems: LintProblem[] = [];
  const add = (file: string, pointer: string, rule: LintRule, message: string) =>
    problems.push({ file, pointer, rule, message });
  const base = `${ID_BASE}${spec.folder}/`;
  const refs = new RefResolver(spec);
  const roots = new Set(refs.roots.map((r) => r.path));
  const topicDocs = new Set(spec.index.topics.flatMap((t) => [t.params, t.result]));
  metaAjv ??= new Ajv2020({ strict: true });
  const titles = new Map<string, string>();

  for (const doc of spec.docs) {
    const s = doc.schema;
    if (!metaAjv.validateSchema(s)) {
      // One problem per location: anyOf in the meta-schema reports each failed branch.
      const byPointer = new Map<string, string[]>();
      for (const e of metaAjv.errors ?? [])
        byPointer.set(e.instancePath, [...(byPointer.get(e.instancePath) ?? []), e.message ?? e.keyword]);
      for (const [ptr, msgs] of byPointer)
        add(doc.path, ptr, 'meta-schema', `not a valid JSON Schema: ${msgs.join('; ')}`);
      continue;
    }
    if (s.$schema !== DRAFT_2020) add(doc.path, '/$schema', 'root-annotations', `$schema must be "${DRAFT_2020}"`);
    if (s.$id !== base + doc.path) add(doc.path, '/$id', 'root-annotations', `$id must be "${base + doc.path}"`);
    for (const k of ['title', 'description'])
      if (typeof s[k] !== 'string') add(doc.path, '', 'root-annotations', `missing ${k}`);

    for (const [node, ptr] of schemaNodes(s)) {
      if (typeof node.$ref === 'string') {
        try {
          refs.resolve(node.$ref, doc.id);
        } catch {
          add(
            doc.path,
            `${ptr}/$ref`,
            'ref',
            `unsupported $ref "${node.$ref}": refs must point at a root schema or a $defs entry`,
          );
        }
      }
      if (Array.isArray(node.type) && node.type.filter((t) => t !== 'null').length > 1) {
        add(
          doc.path,
          `${ptr}/type`,
          'union-type',
          `type ${JSON.stringify(node.type)} is a union: use anyOf (only [T, "null"] is allowed)`,
        );
      }
      if ('format' in node) {
        add(
          doc.path,
          `${ptr}/format`,
          'format',
          `format ${JSON.stringify(node.format)} would need the ajv-formats runtime in the generated validators: use pattern`,
        );
      }
      if (typeof node.description === 'string') {
        const said = describedDefault(node.description);
        if (said !== undefined && !('default' in node)) {
          add(
            doc.path,
            `${ptr}/description`,
            'default-description',
            `description names default ${said} but the schema has no default`,
          );
        } else if (said !== undefined && !sameValue(said, node.default)) {
          add(
            doc.path,
            `${ptr}/description`,
            'default-description',
            `description names default ${said} but the schema's default is ${JSON.stringify(node.default)}`,
          );
        }
      }
      if (typeof node.title === 'string') {
        const first = titles.get(node.title);
        if (first) add(doc.path, `${ptr}/title`, 'unique-titles', `title "${node.title}" is already used at ${first}`);
        else titles.set(node.title, `${doc.path}#${ptr}`);
      }
      if (topicDocs.has(doc.path) && node.additionalProperties === false) {
        add(
          doc.path,
          `${ptr}/additionalProperties`,
          'open-topics',
          'params and results accept unknown fields: drop additionalProperties: false',
        );
      }
    }
    for (const [key, def] of Object.entries((s.$defs as Record<string, JsonSchema> | undefined) ?? {})) {
      if (def.title !== key)
        add(doc.path, `/$defs/${esc(key)}/title`, 'defs-title', `title must be "${key}" (its key)`);
    }
    if (roots.has(doc.path)) {
      const n = Array.isArray(s.examples) ? s.examples.length : 0;
      if (n < 1 || n > 3)
        add(doc.path, '/examples', 'examples-count', `${n} examples: message and topic schemas carry 1 to 3`);
    }
  }
  lintIndex(spec, options.specRoot, add);
  // Compiling and validating examples only makes sense on structurally sound schemas.
  if (problems.length > 0) return problems;

  const ajv = specAjv(spec, options.ajv);
  for (const doc of spec.docs) {
    try {
      ajv.getSchema(doc.id);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const at = /at "([^"#]*)#?([^"]*)"/.exec(msg);
      if (at) {
        add(spec.byId.get(at[1]!)?.path ?? doc.path, at[2]!, 'ajv-strict', msg);
        continue;
      }
      // ajv names an unknown keyword without its place: the first node of the document carrying it.
      const keyword = /unknown keyword: "([^"]+)"/.exec(msg)?.[1];
      const found = keyword === undefined ? undefined : [...schemaNodes(doc.schema)].find(([n]) => keyword in n);
      add(doc.path, found ? `${found[1]}/${esc(keyword!)}` : '', 'ajv-strict', msg);
    }
  }
  if (problems.length > 0) return problems;
  for (const doc of spec.docs) {
    for (const [node, ptr] of schemaNodes(doc.schema)) {
      if (!Array.isArray(node.examples) && !('default' in node)) continue;
      const validate = ajv.getSchema(ptr === '' ? doc.id : `${doc.id}#${ptr}`);
      if (!validate) throw new Error(`lint: cannot compile ${doc.path}#${ptr}`);
      ((node.examples as unknown[] | undefined) ?? []).forEach((ex, i) => {
        if (!validate(ex))
          add(
            doc.path,
            `${ptr}/examples/${i}`,
            'examples-valid',
            `example ${JSON.stringify(ex)} is invalid: ${ajv.errorsText(validate.errors)}`,
          );
      });
      if ('default' in node && !validate(node.default)) {
        add(
          doc.path,
          `${ptr}/default`,
          'default-valid',
          `default ${JSON.stringify(node.default)} is invalid: ${ajv.errorsText(validate.errors)}`,
        );
      }
    }
  }
  return problems;
}

let indexAjv: Ajv2020 | undefined;
const indexValidators = new Map<string, ValidateFunction>();

/** spec/index.schema.json compiled once per content (a fresh ajv would compile the meta-schema again). */
function indexValidator(text: string): ValidateFunction {
  let v = indexValidators.get(text);
  if (!v) {
    indexAjv ??= new Ajv2020({ strict: true, allErrors: true, validateSchema: false });
    const schema = JSON.parse(text) as JsonSchema;
    if (typeof schema.$id === 'string') indexAjv.removeSchema(schema.$id);
    v = indexAjv.compile(schema);
    indexValidators.set(text, v);
  }
  return v;
}

function lintIndex(
  spec: Spec,
  specRoot: string | undefined,
  add: (f: string, p: string, r: LintRule, m: string) => void,
): void {
  const index = spec.index as Spec['index'] & { $schema?: string };
  const problem = (pointer: string, message: string) => add('index.json', pointer, 'index', message);
  const indexSchema = specRoot ? join(specRoot, 'index.schema.json') : undefined;
  if (indexSchema && existsSync(indexSchema)) {
    if (index.$schema !== '../index.schema.json') problem('/$schema', 'must be "../index.schema.json"');
    const validate = indexValidator(readFileSync(indexSchema, 'utf8'));
    if (!validate(index)) for (const e of validate.errors ?? []) problem(e.instancePath, e.message ?? e.keyword);
  }
  if (`v${index.version}` !== spec.folder)
    problem('/version', `${JSON.stringify(index.version)} is not the folder's version (${spec.folder})`);
  const errorCodeDoc = index.messages.errorCode ? spec.byPath.get(index.messages.errorCode) : undefined;
  const codes = (index.errorCodes ?? []).map((e) => e.code);
  if (errorCodeDoc && JSON.stringify(errorCodeDoc.schema.enum) !== JSON.stringify(codes)) {
    problem('/errorCodes', `codes ${codes.join(', ')} differ from ${index.messages.errorCode}'s enum`);
  }
  (index.errorCodes ?? []).forEach((e, i) => {
    if (compareVersions(e.since, index.version) > 0)
      problem(`/errorCodes/${i}/since`, `${e.code} since ${e.since} is newer than the version`);
  });
  // method and typeName are free (a rename is a WARN in the diff, docs/maintainers.md), but each names
  // one generated method or type: they must be unique, like the topics.
  const seen = { topic: new Set<string>(), method: new Set<string>(), typeName: new Set<string>() };
  (index.topics ?? []).forEach((t, i) => {
    const at = `/topics/${i}`;
    for (const k of ['topic', 'method', 'typeName'] as const) {
      if (seen[k].has(t[k])) problem(`${at}/${k}`, `${k} ${t[k]} is listed twice`);
      seen[k].add(t[k]);
    }
    if (compareVersions(t.since, index.version) > 0)
      problem(`${at}/since`, `since ${t.since} is newer than the version`);
    for (const e of t.errors)
      if (!codes.includes(e)) problem(`${at}/errors`, `${e} is not an error code of the version`);
    const [, , , category = '', action = ''] = t.topic.split('/');
    const expect: [keyof typeof t, string][] = [
      ['params', `topics/${category}-${action.toLowerCase()}.params.schema.json`],
      ['result', `topics/${category}-${action.toLowerCase()}.result.schema.json`],
    ];
    for (const [k, v] of expect)
      if (t[k] !== v) problem(`${at}/${k}`, `must be ${JSON.stringify(v)} (derived from ${t.topic})`);
    for (const [file, title] of [
      [t.params, `${t.typeName}Params`],
      [t.result, `${t.typeName}Result`],
    ] as const) {
      const doc = spec.byPath.get(file);
      if (doc && doc.schema.title !== title)
        add(file, '/title', 'index', `title must be "${title}" (the index's typeName)`);
    }
  });
}

/** One line per problem: `spec/v0.1.6/topics/x.schema.json#/properties/y/type: [union-type] …`. */
export function formatProblems(specRoot: string, spec: Spec, problems: LintProblem[]): string {
  return problems
    .map((p) => {
      const full = join(specRoot, spec.folder, p.file);
      const rel = relative(process.cwd(), full);
      const shown = rel.startsWith('..') || isAbsolute(rel) ? full : rel;
      return `${shown}#${p.pointer}: [${p.rule}] ${p.message}`;
    })
    .join('\n');
}

class SpecLintError extends Error {
  constructor(
    readonly problems: LintProblem[],
    text: string,
  ) {
    super(`spec lint: ${problems.length} problem(s)\n${text}`);
  }
}

/** Throws a SpecLintError naming every problem; the generator calls this before generating anything. */
export function assertSpecClean(specRoot: string, spec: Spec, ajv?: Ajv2020): void {
  const problems = lintSpec(spec, { specRoot, ajv });
  if (problems.length > 0) throw new SpecLintError(problems, formatProblems(specRoot, spec, problems));
}
