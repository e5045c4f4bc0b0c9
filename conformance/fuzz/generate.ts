// Params from a topic's params schema (the self-contained copy of generated/<v>/mcp-tools.ts): valid ones with
// the edge values fixtures rarely ask for, and invalid ones that break exactly one constraint. Every value is
// checked against the version's own params validator afterwards, so a label ("valid", "breaks rule X") is
// never wrong even where the generator is naive (dependentRequired, anyOf).
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import type { Validate } from '../../runtime/frames';
import type { BrokenRule, FuzzInput } from './input';

export type Schema = { readonly [key: string]: unknown };

export interface TopicModel {
  topic: string;
  /** The params schema, references under $defs. */
  schema: Schema;
  validate: Validate;
  /** Changes the workspace (spec/topic-annotations.json destructiveHint). */
  destructive: boolean;
}

export interface GenContext {
  /** Absolute fixture workspace folder. */
  workspace: string;
  /** Existing files, relative, "/"-separated (a sample). */
  files: readonly string[];
}

/** A sample of the workspace's files (not .git): the paths that exist, first the shortest. */
export function sampleFiles(workspace: string, max = 40): string[] {
  const out: string[] = [];
  const visit = (dir: string, rel: string, depth: number) => {
    if (depth > 4 || out.length >= max * 4) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(workspace, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === '.git') continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(dir, r, depth + 1);
      else if (e.isFile()) out.push(r);
    }
  };
  visit(workspace, '', 0);
  return out.sort((a, b) => a.split('/').length - b.split('/').length || a.length - b.length).slice(0, max);
}

function deref(node: Schema, root: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return node;
  const target = (root.$defs as Record<string, Schema> | undefined)?.[ref.slice('#/$defs/'.length)];
  if (!target) return node;
  const { $ref: _ref, ...rest } = node;
  return { ...deref(target, root), ...rest };
}

const UNICODE = ['é', 'ß', '日本語', '😀', '👩‍💻', 'e\u0301', '\u202e', '\u0000', '\uD83D', '\uDE00x', 'Ω≈ç√'];
const REGEX_SYNTAX = [
  '.*',
  '(',
  ')',
  '[',
  '\\',
  '$1',
  '(a+)+$',
  '(?<n>x)\\k<n>',
  '\\p{L}+',
  '^$',
  '|',
  '\\b',
  '.{0,}?',
];
const GLOBS = [
  '**/*',
  '**/*.ts',
  '',
  '*',
  '**',
  '{a,b}',
  '{',
  '[',
  '[!a]',
  '!(x)',
  '\\',
  '/**',
  '../**',
  '**/..',
  '**/node_modules/**',
  'src/**/*.{ts,js}',
  '***',
  '?',
];

/** A string of n copies of one character: shrinking moves n toward the smallest length that still fails. */
function longString(min: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('a', 'é', '😀', '.*'), fc.integer({ min: Math.max(min, 1000), max: 20_000 }))
    .map(([c, n]) => c.repeat(n).slice(0, n));
}

function pathArb(ctx: GenContext, destructive: boolean): fc.Arbitrary<string> {
  const first = ctx.files[0] ?? 'README.md';
  const inside = [
    first,
    ...ctx.files.slice(1),
    ...ctx.files.slice(0, 5).map((f) => join(ctx.workspace, f)),
    `./${first}`,
    `src/../${first}`,
    'does-not-exist.ts',
    'src/does/not/exist.ts',
    '.',
    'src',
    ctx.workspace,
    `${first}/`,
    `${'d/'.repeat(60)}x.ts`,
    `${UNICODE[3]}.ts`,
  ];
  // Escapes: read-only topics get real outside files; write topics only a folder beside the workspace that does not exist.
  const name = ctx.workspace.split('/').pop() ?? 'ws';
  const outside = destructive
    ? [`../${name}.fuzz-outside/x.ts`, join(ctx.workspace, '..', `${name}.fuzz-outside`, 'x.ts')]
    : ['../x.ts', `../${name}/${first}`, '/etc/passwd', `src/../../${name}.fuzz-outside/x.ts`, '..', '/'];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...inside), weight: 6 },
    { arbitrary: fc.constantFrom(...outside), weight: 2 },
    { arbitrary: fc.string({ minLength: 1, unit: 'grapheme' }), weight: 1 },
  );
}

function stringArb(node: Schema, name: string, ctx: GenContext, destructive: boolean): fc.Arbitrary<string> {
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  const ok = (s: string) => s.length >= minLength;
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as string[]));
  if (typeof node.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(node.pattern, 'u')).filter(ok);
    } catch {
      // a pattern fast-check cannot generate from: plain strings, the validator sorts out the labels
    }
  }
  if (node.title === 'FilePath' || /path$/i.test(name)) return pathArb(ctx, destructive).filter(ok);
  const edges = node.title === 'Glob' || /^(include|exclude)$/.test(name) ? GLOBS : [...REGEX_SYNTAX, ...UNICODE];
  const plain = ['x', 'a', 'export', 'function', 'const', ' '];
  // Cross-shrinking: a long or random string that does not matter to a finding shrinks to a plain one.
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom(...[...plain, ...edges, '', ' '].filter(ok)), weight: 5 },
    { arbitrary: fc.string({ minLength, unit: 'grapheme' }), weight: 2 },
    { arbitrary: fc.string({ minLength, unit: 'binary' }), weight: 1 },
    { arbitrary: longString(minLength), weight: 1 },
  );
}

function integerArb(node: Schema): fc.Arbitrary<number> {
  const min = typeof node.minimum === 'number' ? node.minimum : -1000;
  const max = typeof node.maximum === 'number' ? node.maximum : Number.MAX_SAFE_INTEGER;
  const edges = [min, min + 1, max, 2 ** 31 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER].filter((n) => n >= min && n <= max);
  return fc.oneof(
    { arbitrary: fc.integer({ min, max: Math.min(max, min + 200) }), weight: 4 },
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
  );
}

/** Values valid for `node` (mostly: the validator has the last word). */
export function validArb(
  node0: Schema,
  root: Schema,
  name: string,
  ctx: GenContext,
  destructive: boolean,
): fc.Arbitrary<unknown> {
  const node = deref(node0, root);
  if ('const' in node) return fc.constant(node.const);
  const alternatives = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && node.type !== 'object')
    return fc.oneof(...alternatives.map((s) => validArb(s, root, name, ctx, destructive)));
  switch (node.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArb(node);
    case 'number':
      return fc.double({ noNaN: true });
    case 'string':
      return stringArb(node, name, ctx, destructive);
    case 'array': {
      const items = (node.items as Schema | undefined) ?? {};
      const minLength = typeof node.minItems === 'number' ? node.minItems : 0;
      const item = validArb(items, root, name, ctx, destructive);
      const bounds = { minLength, maxLength: minLength + 4 };
      return node.uniqueItems
        ? fc.uniqueArray(item, { ...bounds, selector: (v) => JSON.stringify(v) })
        : fc.array(item, bounds);
    }
    case 'object': {
      const props = (node.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(
        Object.entries(props).map(([k, s]) => [k, validArb(s, root, k, ctx, destructive)]),
      );
      const required = (node.required as string[] | undefined) ?? [];
      // anyOf of required sets (localhistory/diff: fromId or toId): one alternative's keys become required too.
      const sets = (Array.isArray(alternatives) ? alternatives : [{}]).map((a) => [
        ...new Set([...required, ...(((a as Schema).required as string[] | undefined) ?? [])]),
      ]);
      const deps = (node.dependentRequired ?? {}) as Record<string, string[]>;
      return fc.oneof(...sets.map((requiredKeys) => fc.record(model, { requiredKeys }))).map((o) => {
        // dependentRequired (editor/open: character needs line): a key whose dependencies are absent goes.
        const out = { ...(o as Record<string, unknown>) };
        for (const [k, needs] of Object.entries(deps)) if (k in out && needs.some((d) => !(d in out))) delete out[k];
        return out;
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

const WRONG_TYPE: Record<string, unknown[]> = {
  string: [0, true, null, [], {}, ['x']],
  integer: ['1', 1.5, true, null, []],
  number: ['1', true, null],
  boolean: ['true', 0, 1, null, 'false'],
  array: ['x', {}, 0, null],
  object: ['x', [], 0, null],
};

/** Values of `node` that break one constraint of it, with the rule broken. */
function breakersOf(node0: Schema, root: Schema): { rule: BrokenRule; arb: fc.Arbitrary<unknown> }[] {
  const node = deref(node0, root);
  const out: { rule: BrokenRule; arb: fc.Arbitrary<unknown> }[] = [];
  const type = typeof node.type === 'string' ? node.type : undefined;
  if (type && WRONG_TYPE[type]) out.push({ rule: 'type', arb: fc.constantFrom(...WRONG_TYPE[type]!) });
  if (typeof node.minimum === 'number') {
    const min = node.minimum;
    out.push({
      rule: 'range',
      arb: fc.oneof(fc.integer({ min: min - 1_000_000, max: min - 1 }), fc.constant(-(2 ** 53))),
    });
  }
  if (typeof node.maximum === 'number') {
    const max = node.maximum;
    out.push({
      rule: 'range',
      arb: fc.oneof(fc.integer({ min: max + 1, max: max + 1_000_000 }), fc.constant(2 ** 53)),
    });
  }
  if (typeof node.minLength === 'number' && node.minLength > 0) out.push({ rule: 'range', arb: fc.constant('') });
  if (typeof node.maxLength === 'number') out.push({ rule: 'range', arb: fc.constant('x'.repeat(node.maxLength + 1)) });
  if (typeof node.minItems === 'number' && node.minItems > 0) out.push({ rule: 'range', arb: fc.constant([]) });
  if (typeof node.pattern === 'string') {
    const re = new RegExp(node.pattern, 'u');
    const candidates = ['-x', '--output=/tmp/x', '-', 'zz', ' ', 'ABC', '0'.repeat(39), 'g'.repeat(40), '2026-01-01'];
    const bad = candidates.filter((s) => !re.test(s));
    if (bad.length) out.push({ rule: 'pattern', arb: fc.constantFrom(...bad) });
  }
  if (Array.isArray(node.enum)) {
    const bad = ['ALL', 'bogus', '', 'Error', ' error'].filter((s) => !(node.enum as unknown[]).includes(s));
    out.push({ rule: 'enum', arb: fc.constantFrom(...bad) });
  }
  return out;
}

/** How many objects deep inside a param nested breakers go (edit/apply: a change › one of its edits › a field). */
const NESTED_DEPTH = 3;

/**
 * Values of `node` valid but for one constraint of something inside it: a field of an object (its type, range,
 * pattern or enum, or a required field missing), or one item of an array, at any depth up to `depth`; `path`
 * says where (`.line`, `[].edits[].namePath`). Each alternative of a oneOf of objects is broken on its own
 * (edit/apply's change kinds, a range edit and a symbol edit), so the other items stay valid: a server that
 * writes the valid changes before it checks the rest is caught by the write oracle.
 */
function nestedBreakersOf(
  node0: Schema,
  root: Schema,
  name: string,
  ctx: GenContext,
  destructive: boolean,
  depth: number,
): { path: string; rule: BrokenRule; arb: fc.Arbitrary<unknown> }[] {
  if (depth <= 0) return [];
  const node = deref(node0, root);
  const alternatives = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && node.type !== 'object')
    return alternatives.flatMap((a) => nestedBreakersOf(a, root, name, ctx, destructive, depth));
  if (node.type === 'array') {
    const items = (node.items as Schema | undefined) ?? {};
    const item = validArb(items, root, name, ctx, destructive);
    const minLength = typeof node.minItems === 'number' ? node.minItems : 0;
    const itemNode = deref(items, root);
    const inner =
      itemNode.type === 'object' || Array.isArray(itemNode.anyOf ?? itemNode.oneOf)
        ? nestedBreakersOf(items, root, name, ctx, destructive, depth)
        : breakersOf(items, root).map((b) => ({ path: '', ...b }));
    return inner.map(({ path, rule, arb }) => ({
      path: `[]${path}`,
      rule,
      // The broken item among valid ones, anywhere in the array (not only first: a server may check item 0 alone).
      arb: fc
        .tuple(fc.array(item, { minLength: Math.max(0, minLength - 1), maxLength: 3 }), arb, fc.nat())
        .map(([valid, bad, at]) => {
          const out = [...valid];
          out.splice(at % (valid.length + 1), 0, bad);
          return out;
        }),
    }));
  }
  if (node.type !== 'object') return [];
  const props = (node.properties ?? {}) as Record<string, Schema>;
  const required = (node.required as string[] | undefined) ?? [];
  const fields = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, validArb(s, root, k, ctx, destructive)]));
  const rest = fc.record(fields, { requiredKeys: required });
  const out: { path: string; rule: BrokenRule; arb: fc.Arbitrary<unknown> }[] = [];
  for (const [field, s] of Object.entries(props)) {
    const broken = [
      ...breakersOf(s, root).map((b) => ({ path: `.${field}`, ...b })),
      ...nestedBreakersOf(s, root, field, ctx, destructive, depth - 1).map((b) => ({
        ...b,
        path: `.${field}${b.path}`,
      })),
    ];
    for (const { path, rule, arb } of broken)
      out.push({ path, rule, arb: fc.tuple(rest, arb).map(([o, bad]) => ({ ...(o as object), [field]: bad })) });
  }
  for (const field of required)
    out.push({
      path: `.${field}`,
      rule: 'required',
      arb: fc.record(fields, { requiredKeys: required.filter((r) => r !== field) }).map((o) => {
        const { [field]: _gone, ...kept } = o as Record<string, unknown>;
        return kept;
      }),
    });
  return out;
}

/** Inputs of one topic: valid ones and ones breaking one constraint (a field's type, range, pattern, enum; a required field; params itself; the same inside an item of an array param, such as one change of edit/apply). */
export function topicArb(model: TopicModel, ctx: GenContext): fc.Arbitrary<FuzzInput> {
  const { schema, topic, validate, destructive } = model;
  // The validator decides; a generated value it refuses becomes the schema's first valid example (a map, not a
  // filter: a filter that never passes would spin forever, synchronously).
  const example = ((schema.examples as unknown[] | undefined) ?? []).find((e) => validate(e));
  const valid = validArb(schema, schema, '', ctx, destructive).map(
    (params): FuzzInput => ({ topic, params: validate(params) || example === undefined ? params : example }),
  );
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required as string[] | undefined) ?? [];
  const fieldArbs = Object.fromEntries(
    Object.entries(props).map(([k, s]) => [k, validArb(s, schema, k, ctx, destructive)]),
  );
  const invalid: fc.Arbitrary<FuzzInput>[] = [
    fc
      .constantFrom(null, [], 'x', 42)
      .map((params): FuzzInput => ({ topic, params, invalid: { field: '(params)', rule: 'params' } })),
  ];
  for (const [field, s] of Object.entries(props))
    for (const { rule, arb } of breakersOf(s, schema))
      invalid.push(
        fc
          .tuple(fc.record(fieldArbs, { requiredKeys: required }), arb)
          .map(([rest, bad]): FuzzInput => ({ topic, params: { ...rest, [field]: bad }, invalid: { field, rule } })),
      );
  for (const [field, s] of Object.entries(props))
    for (const { path, rule, arb } of nestedBreakersOf(s, schema, field, ctx, destructive, NESTED_DEPTH))
      invalid.push(
        fc.tuple(fc.record(fieldArbs, { requiredKeys: required }), arb).map(
          ([rest, bad]): FuzzInput => ({
            topic,
            params: { ...rest, [field]: bad },
            invalid: { field: `${field}${path}`, rule },
          }),
        ),
      );
  for (const field of required)
    invalid.push(
      fc.record(fieldArbs, { requiredKeys: required.filter((r) => r !== field) }).map((p): FuzzInput => {
        const { [field]: _gone, ...params } = p as Record<string, unknown>;
        return { topic, params, invalid: { field, rule: 'required' } };
      }),
    );
  const invalidArb = fc
    .oneof(...invalid)
    .map(
      (i): FuzzInput =>
        validate(i.params) ? { topic, params: null, invalid: { field: '(params)', rule: 'params' } } : i,
    );
  // Cross-shrinking: invalid params whose invalidity does not matter to a finding shrink to valid ones.
  return fc.oneof({ withCrossShrink: true }, { arbitrary: valid, weight: 3 }, { arbitrary: invalidArb, weight: 2 });
}

/** Whether a path param of `input` resolves outside the workspace (then only an error is a conforming answer: R6/H5). */
export function escapingPath(input: FuzzInput, workspace: string): string | undefined {
  if (input.invalid || typeof input.params !== 'object' || input.params === null) return undefined;
  const p = (input.params as Record<string, unknown>).filePath;
  if (typeof p !== 'string' || p === '') return undefined;
  const abs = resolve(workspace, p);
  const root = resolve(workspace);
  return abs === root || abs.startsWith(`${root}/`) ? undefined : p;
}
