// The keywords whose effect on the allowed values depends on where their subschema sits: `not`
// (inverts), `if`/`then`/`else`, `dependentSchemas`, `dependentRequired`, `prefixItems` with `items`,
// `contains` with its bounds, `patternProperties`, `propertyNames` and `unevaluated*`. Each is compared
// only where the whole is monotone in the part (so a part's narrowing is the whole's narrowing, or
// its widening under `not`); anywhere else the change is WARN, naming the keyword.
import { isObject, type Json } from '@idea-kit/spec-lib/spec';
import { asSchema, canonical, type Schema, stringList } from './keywords';
import { brief, join, show } from './message';
import type { Effect } from './types';

/** How a subschema's comparison relates to its parent's. */
export interface Inside {
  /** The parent allows what the subschema refuses (`not`): effects invert. */
  negate?: boolean;
  /** Why no INFO can be proven inside (each INFO found there becomes WARN, with this reason). */
  cap?: string;
  /** Why nothing can be proven inside, breaking or safe (each ERR and INFO there becomes WARN "unproven"). */
  blind?: string;
  /** The subschema is a condition (`if`, `contains`, `propertyNames`), not what a client sends or a
   *  server returns: the protocol's conventions about fields do not apply, only the effect on values. */
  strict?: boolean;
}

/** The comparison the keywords here feed back into (schema-diff.ts). */
export interface Differ {
  /** Some `unevaluated*` keyword sees which properties and items the others evaluated. */
  readonly evaluation: boolean;
  compare(a: Schema, b: Schema, path: string): void;
  effect(effect: Effect, kind: string, path: string, what: string): void;
  unreasoned(keyword: string, path: string, what: string): void;
  inside(via: string, how: Inside, f: () => void): void;
  /**
   * A new constraint that binds only values carrying a field the old schema did not have: judged by the
   * protocol's convention for a new field (servers ignore unknown params, clients unknown result fields).
   */
  newFieldConstraint(field: string, path: string, what: string): void;
}

/** A conjunct added narrows, removed widens; `both` compares one present on both sides. */
function conjunct(d: Differ, x: Json | undefined, y: Json | undefined, path: string, what: string, both: () => void) {
  if (canonical(x) === canonical(y)) return;
  if (x === undefined) d.effect('narrowed', 'constraint-added', path, `new ${what} ${brief(y)}`);
  else if (y === undefined) d.effect('widened', 'constraint-removed', path, `${what} ${brief(x)} removed`);
  else both();
}

/** `not S` allows what S refuses: S narrowed is the whole widened. */
export function not(d: Differ, a: Schema, b: Schema, path: string): void {
  conjunct(d, a.not, b.not, path, '`not`', () =>
    d.inside('`not`', { negate: true }, () => d.compare(asSchema(a.not), asSchema(b.not), path)),
  );
}

/** `if`/`then`/`else` holds for v when v ∈ if ⇒ v ∈ then and v ∉ if ⇒ v ∈ else: monotone in `then`
 *  and `else`; in `if` only when one of them is absent (¬if ∨ then: a narrower `if` widens it;
 *  if ∨ else: a wider one widens it). An `if` replaced beside both is not reasoned about. */
export function conditional(d: Differ, a: Schema, b: Schema, path: string): void {
  const group = (s: Schema): Json | undefined =>
    s.if === undefined
      ? undefined
      : Object.fromEntries(['if', 'then', 'else'].filter((k) => s[k] !== undefined).map((k) => [k, s[k]!]));
  conjunct(d, group(a), group(b), path, 'if/then/else constraint', () => {
    // What `if` evaluates when it holds counts for `unevaluated*`: a narrower `if` can then refuse more.
    const ifBlind = d.evaluation ? { blind: '`if` evaluates what `unevaluated*` sees when it holds' } : {};
    const part = (k: 'if' | 'then' | 'else', negate = false) =>
      d.inside(`\`${k}\``, { negate, strict: k === 'if', ...(k === 'if' ? ifBlind : {}) }, () =>
        d.compare(asSchema(a[k]), asSchema(b[k]), path),
      );
    // ajv evaluates `if` only beside `then` or `else`: one added as `{}` changes what counts evaluated.
    for (const k of ['then', 'else'] as const) {
      if ((a[k] === undefined) !== (b[k] === undefined) && canonical(asSchema(a[k])) === canonical(asSchema(b[k])))
        d.unreasoned(k, path, `\`${k}\` ${show(a[k])} → ${show(b[k])}, which decides whether \`if\` evaluates`);
    }
    const noElse = a.else === undefined && b.else === undefined;
    const noThen = a.then === undefined && b.then === undefined;
    if (canonical(a.if) !== canonical(b.if)) {
      if (noElse) part('if', true);
      else if (noThen) part('if');
      else return d.unreasoned('if', path, `\`if\` ${brief(a.if)} → ${brief(b.if)} beside both \`then\` and \`else\``);
    }
    part('then');
    part('else');
  });
}

/** One conjunct per property name: "when the object has it, the object also matches S". One added for
 *  a property the new schema adds (the old one neither defined nor required it) binds only values
 *  carrying that new field. */
export function dependentSchemas(d: Differ, a: Schema, b: Schema, path: string): void {
  const da = isObject(a.dependentSchemas) ? a.dependentSchemas : {};
  const db = isObject(b.dependentSchemas) ? b.dependentSchemas : {};
  const known = new Set([...Object.keys(isObject(a.properties) ? a.properties : {}), ...stringList(a.required)]);
  for (const name of [...new Set([...Object.keys(da), ...Object.keys(db)])].sort()) {
    const what = `dependentSchemas[${JSON.stringify(name)}]`;
    if (da[name] === undefined && !known.has(name) && isObject(b.properties) && name in b.properties) {
      d.newFieldConstraint(name, path, `new \`${what}\` ${brief(db[name])}`);
      continue;
    }
    conjunct(d, da[name], db[name], path, `\`${what}\``, () =>
      d.inside(`\`${what}\``, {}, () => d.compare(asSchema(da[name]), asSchema(db[name]), path)),
    );
  }
}

/** One conjunct per (property, property it requires) pair. */
export function dependentRequired(d: Differ, a: Schema, b: Schema, path: string): void {
  const pairs = (s: Schema) => {
    const m = isObject(s.dependentRequired) ? s.dependentRequired : {};
    return new Set(
      Object.entries(m).flatMap(([k, v]) =>
        (Array.isArray(v) ? v : []).map((n) => JSON.stringify([k, typeof n === 'string' ? n : String(n)])),
      ),
    );
  };
  const pa = pairs(a);
  const pb = pairs(b);
  const text = (p: string) => {
    const [k, n] = JSON.parse(p) as [string, string];
    return `"${k}" requires "${n}"`;
  };
  const added = [...pb].filter((p) => !pa.has(p));
  const removed = [...pa].filter((p) => !pb.has(p));
  if (added.length > 0)
    d.effect('narrowed', 'dependency-added', path, `dependentRequired: now ${added.map(text).join(', ')}`);
  if (removed.length > 0)
    d.effect('widened', 'dependency-removed', path, `dependentRequired: no longer ${removed.map(text).join(', ')}`);
}

/** Every property name must match the subschema. */
export function propertyNames(d: Differ, a: Schema, b: Schema, path: string): void {
  conjunct(d, a.propertyNames, b.propertyNames, path, '`propertyNames`', () =>
    d.inside('`propertyNames`', { strict: true }, () =>
      d.compare(asSchema(a.propertyNames), asSchema(b.propertyNames), path),
    ),
  );
}

/** Per pattern a conjunct over the properties it matches, as long as `additionalProperties` (which
 *  sees only names no pattern matches) is open on both sides; otherwise a pattern added or removed
 *  moves names in or out of its reach, which is not reasoned about. */
export function patternProperties(d: Differ, a: Schema, b: Schema, path: string): void {
  const pa = isObject(a.patternProperties) ? a.patternProperties : {};
  const pb = isObject(b.patternProperties) ? b.patternProperties : {};
  if (canonical(pa) === canonical(pb)) return;
  const open = (s: Schema) => s.additionalProperties === undefined || canonical(s.additionalProperties) === '{}';
  const keys = (m: Schema) => Object.keys(m).sort().join('\n');
  if ((!open(a) || !open(b)) && keys(pa) !== keys(pb))
    return d.unreasoned(
      'patternProperties',
      path,
      `patternProperties ${brief(pa)} → ${brief(pb)} beside \`additionalProperties\` ${show(b.additionalProperties ?? a.additionalProperties)}`,
    );
  for (const p of [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort()) {
    const what = `patternProperties[${JSON.stringify(p)}]`;
    conjunct(d, pa[p], pb[p], path, `\`${what}\``, () =>
      d.inside(`\`${what}\``, {}, () => d.compare(asSchema(pa[p]), asSchema(pb[p]), path)),
    );
  }
}

/** The items of a tuple, position by position: position i is `prefixItems[i]`, or `items` past the
 *  prefix. False when neither side has a `prefixItems` (schema-diff.ts compares `items` alone). */
export function tuple(d: Differ, a: Schema, b: Schema, path: string): boolean {
  const pa = Array.isArray(a.prefixItems) ? a.prefixItems : null;
  const pb = Array.isArray(b.prefixItems) ? b.prefixItems : null;
  if (!pa && !pb) return false;
  // Past the prefix, `items` applies; without it, `unevaluatedItems` (when nothing else here evaluates).
  const sameU = canonical(a.unevaluatedItems) === canonical(b.unevaluatedItems);
  const rest = (s: Schema) => asSchema(s.items ?? (sameU ? s.unevaluatedItems : undefined));
  const at = (s: Schema, p: Json[] | null, i: number) => (p && i < p.length ? asSchema(p[i]) : rest(s));
  // Items a prefix or `items` reaches count as evaluated, whatever their schema allows.
  const reach = (s: Schema, p: Json[] | null) => (s.items !== undefined ? 'all' : String(p?.length ?? 0));
  if (d.evaluation && reach(a, pa) !== reach(b, pb))
    d.unreasoned(
      'prefixItems',
      path,
      `items evaluated by \`prefixItems\`/\`items\`: ${reach(a, pa)} → ${reach(b, pb)}, which \`unevaluatedItems\` sees`,
    );
  for (let i = 0; i < Math.max(pa?.length ?? 0, pb?.length ?? 0); i++)
    d.compare(at(a, pa, i), at(b, pb, i), join(path, `[${i}]`));
  d.compare(rest(a), rest(b), join(path, '[]'));
  return true;
}

/** `contains` C with `minContains` m (absent: 1) and `maxContains` M (absent: none): between m and M
 *  items match C. The bounds compare like bounds; then, under the new bounds, C compares as itself
 *  when only m bounds the count (a wider C is easier to meet), inverted when only M does (m = 0: a
 *  wider C is harder to meet), and not at all when both do. */
export function contains(d: Differ, a: Schema, b: Schema, path: string): void {
  const group = (s: Schema): Json | undefined =>
    s.contains === undefined
      ? undefined
      : Object.fromEntries(
          ['contains', 'minContains', 'maxContains'].filter((k) => s[k] !== undefined).map((k) => [k, s[k]!]),
        );
  conjunct(d, group(a), group(b), path, '`contains` constraint', () => {
    const min = (s: Schema) => (typeof s.minContains === 'number' ? s.minContains : 1);
    const max = (s: Schema) => (typeof s.maxContains === 'number' ? s.maxContains : Number.POSITIVE_INFINITY);
    const bound = (k: string, x: number, y: number, tighter: boolean) =>
      d.effect(
        tighter ? 'narrowed' : 'widened',
        tighter ? 'bound-tightened' : 'bound-relaxed',
        path,
        `${k} ${show(Number.isFinite(x) ? x : undefined)} → ${show(Number.isFinite(y) ? y : undefined)}`,
      );
    if (min(a) !== min(b)) bound('minContains', min(a), min(b), min(b) > min(a));
    if (max(a) !== max(b)) bound('maxContains', max(a), max(b), max(b) < max(a));
    if (canonical(a.contains) === canonical(b.contains)) return;
    const counted = () => d.compare(asSchema(a.contains), asSchema(b.contains), join(path, '[]'));
    if (b.maxContains === undefined) d.inside('`contains`', { strict: true }, counted);
    else if (min(b) === 0) d.inside('`contains`', { negate: true }, counted);
    else
      d.unreasoned(
        'contains',
        path,
        `\`contains\` ${brief(a.contains)} → ${brief(b.contains)} counted between \`minContains\` and \`maxContains\``,
      );
  });
}

const UNEVALUATED = ['unevaluatedProperties', 'unevaluatedItems'] as const;

/** The `unevaluated*` keywords themselves: added narrows, removed widens, a replaced subschema
 *  compares as the subschema the unevaluated properties or items must match. */
export function unevaluated(d: Differ, a: Schema, b: Schema, path: string): void {
  for (const k of UNEVALUATED) {
    conjunct(d, a[k], b[k], path, `\`${k}\``, () =>
      d.inside(`\`${k}\``, {}, () => d.compare(asSchema(a[k]), asSchema(b[k]), path)),
    );
  }
}

/** Why nothing beside an `unevaluated*` keyword can be proven safe: what it sees depends on what
 *  every other keyword here (and in place below) evaluated. */
export function unevaluatedBeside(a: Schema, b: Schema): string | undefined {
  const k = UNEVALUATED.filter((x) => a[x] !== undefined || b[x] !== undefined);
  return k.length === 0
    ? undefined
    : `${k.map((x) => `\`${x}\``).join(' and ')} beside it depend${k.length > 1 ? '' : 's'} on what is evaluated`;
}
