// Direction-aware comparison of two (inlined, normalised) JSON Schemas. A change narrows the set of
// values the schema allows, widens it, or changes it both ways; whom that breaks depends on who sends
// the value: narrowing what a server accepts breaks clients that send the old values, widening what a
// server returns breaks clients that only understand the old values. A change found inside the target
// of a `$ref` carries that target's name (`def`), so the version diff can report it once (group.ts).
import { subschemaKind } from '@idea-kit/spec-lib/keywords';
import { isObject, type Json, type JsonObject } from '@idea-kit/spec-lib/spec';
import type { Differ, Inside } from './applicators';
import * as applicators from './applicators';
import { formatChange } from './formats';
import {
  ANNOTATIONS,
  asSchema,
  canonical,
  DIALECT,
  isNothing,
  KEYWORD_TYPE,
  KEYWORDS,
  REQUIRED_WHEN,
  stringList,
  typeKey,
  typeOfValue,
} from './keywords';
import { brief, join, show } from './message';
import { type DefUse, defUse, mergeSchemas, typeList } from './normalise';
import { comparePatterns } from './pattern';
import type { Change, Direction, Effect, Level } from './types';

/** Where a change inside a `$ref` target sits in that target, and what it is regardless of who uses it. */
interface DefOrigin {
  /** e.g. "$defs/AbsolutePath". */
  name: string;
  /** Path inside the target ("" for the target itself). */
  path: string;
  /** The change without its consequence ("minimum `0` → `1`"): the same for every use. */
  detail: string;
}

export type SchemaChange = Change & { def?: DefOrigin };

export interface SchemaDiffContext {
  direction: Direction;
  /** e.g. "topic /app/vscode/edit/find params"; copied into every change. */
  location: string;
  /** Enumerations the index diff reports itself (topic lists, error codes, the version string). */
  isIndexOwnedEnum?: (values: Json[]) => boolean;
  emit(change: SchemaChange): void;
}

/** Level of a change by its effect: breaking is narrowing for requests, widening for responses. */
function levelOf(direction: Direction, effect: Effect): Level {
  if (effect === 'changed') return 'ERR';
  if (direction === 'request') return effect === 'narrowed' ? 'ERR' : 'INFO';
  return effect === 'widened' ? 'ERR' : 'INFO';
}

const CONSEQUENCE: Record<Direction, Record<Effect, string>> = {
  request: {
    narrowed: 'the server now rejects values existing clients may send',
    widened: 'the server accepts more than before; existing clients are unaffected',
    changed: 'the server rejects some values existing clients may send',
  },
  response: {
    narrowed: 'the server returns a subset of what it did; existing clients are unaffected',
    widened: 'the server may return values existing clients do not expect',
    changed: 'the server may return values existing clients do not expect',
  },
};

/** The other side of an effect: what a subschema's narrowing does to the whole under `not`. */
function invert(e: Effect): Effect {
  return e === 'narrowed' ? 'widened' : e === 'widened' ? 'narrowed' : 'changed';
}

/** The word every WARN carries whose level is the diff's inability to prove the change breaking or safe. */
export const UNPROVEN = 'unproven';

/**
 * A branch of a new union that every value `old` allows matches: one that only requires fields `old`
 * requires too (its `properties` constraining nothing). Then a new anyOf or oneOf of it constrains
 * nothing the old schema allowed (the locator of 0.1.8: line and character, or namePath).
 */
function keptBranch(old: Schema, branches: readonly Json[]): Json | undefined {
  const required = new Set(stringList(old.required));
  if (required.size === 0) return undefined;
  return branches.find((br) => {
    if (!isObject(br)) return false;
    const keys = Object.keys(br);
    if (!keys.includes('required') || keys.some((k) => k !== 'required' && k !== 'properties' && k !== 'type'))
      return false;
    if (br.type !== undefined && br.type !== 'object' && old.type !== br.type) return false;
    const props = isObject(br.properties) ? br.properties : {};
    if (Object.values(props).some((v) => v !== true && !(isObject(v) && Object.keys(v).length === 0))) return false;
    return stringList(br.required).every((n) => required.has(n));
  });
}
const ONE_OF_OVERLAP =
  'in a `oneOf` a value matching two branches is refused, so whether values are added or refused depends on how the branches overlap';

const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties'];
const NUMBER_BOUNDS = [
  ['minimum', 'exclusiveMinimum', true],
  ['maximum', 'exclusiveMaximum', false],
] as const;
/** Keys compare() judges itself; every other key that changed is reported for review by hand. */
const HANDLED = new Set([
  ...Object.keys(KEYWORDS).filter((k) => KEYWORDS[k]!.treatment === 'reasoned'),
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  REQUIRED_WHEN,
]);

type Schema = JsonObject;

export function diffSchemas(oldS: Json, newS: Json, ctx: SchemaDiffContext, path = ''): void {
  const blind = [...new Set([...scopeWide(oldS), ...scopeWide(newS)])];
  const evaluation = /"unevaluated(Properties|Items)"/.test(JSON.stringify([oldS, newS]));
  new SchemaDiff(ctx, blind, evaluation).compare(asSchema(oldS), asSchema(newS), path);
}

/** Keywords whose effect reaches past their own node, so nothing can be proven anywhere in a schema
 *  holding one, breaking or safe: `$dynamicRef` (resolved at validation time) and a dialect other
 *  than 2020-12. */
function scopeWide(x: Json): string[] {
  if (Array.isArray(x)) return x.flatMap(scopeWide);
  if (!isObject(x)) return [];
  const out: string[] = [];
  if (x.$dynamicRef !== undefined || x.$dynamicAnchor !== undefined)
    out.push('`$dynamicRef` resolves at validation time, through the dynamic scope');
  if (x.$schema !== undefined && x.$schema !== DIALECT)
    out.push(`\`$schema\` ${show(x.$schema)}: the diff reasons in draft 2020-12 only`);
  for (const [k, v] of Object.entries(x)) {
    const kind = subschemaKind(k);
    if (kind === 'schema' || kind === 'list') out.push(...scopeWide(v));
    else if (kind === 'map' && isObject(v)) out.push(...Object.values(v).flatMap(scopeWide));
  }
  return out;
}

/** Where the comparison stands: under which keywords, and what that does to a change found there. */
interface Frame {
  /** Under an odd number of `not`s: a narrowing found here widens the whole. */
  negated: boolean;
  /** Under `not` or a condition: only effects on values count, not the protocol's conventions. */
  strict: boolean;
  /** Why no INFO can be proven here (`unevaluated*` beside: a part's narrowing still narrows). */
  caps: readonly string[];
  /** Why no effect can be proven here either way (a `oneOf` branch, `$dynamicRef`, another dialect). */
  blind: readonly string[];
  /** Keywords passed on the way down (`not`, `then`, …), named in the message. */
  via: readonly string[];
}

class SchemaDiff implements Differ {
  /** `$ref` targets being compared, innermost last: a change is attributed to the innermost. */
  private readonly defs: { name: string; base: string }[] = [];
  private frame: Frame;

  constructor(
    private readonly ctx: SchemaDiffContext,
    blind: string[],
    /** Some `unevaluated*` keyword sees which properties and items the others evaluated. */
    readonly evaluation: boolean,
  ) {
    this.frame = { negated: false, strict: false, caps: [], blind, via: [] };
  }

  /** Reports a change: `detail` names it the same way for every use of a `$ref` target; the message
   *  adds its consequence for this use. A level that cannot be proven here (see Frame) is WARN and
   *  says "unproven": an INFO under a cap, an ERR or INFO where nothing is proven; a change that needs
   *  no proof (an annotation) keeps its level. */
  private report(level: Level, kind: string, path: string, what: string, consequence = '', proven = false): void {
    const f = this.frame;
    const detail = f.via.length > 0 ? `${f.via.join(' › ')}: ${what}` : what;
    let why = consequence;
    const unprovenBy = proven || level === 'WARN' ? [] : level === 'INFO' ? [...f.blind, ...f.caps] : f.blind;
    if (unprovenBy.length > 0) {
      level = 'WARN';
      why = `${consequence ? `${consequence}, but ` : ''}${UNPROVEN}: ${unprovenBy.join('; ')}; review by hand`;
    }
    const change: SchemaChange = {
      level,
      kind,
      location: this.ctx.location,
      path,
      message: why ? `${detail}: ${why}` : detail,
    };
    const d = this.defs.at(-1);
    if (d) change.def = { name: d.name, path: path.slice(d.base.length).replace(/^\./, ''), detail };
    this.ctx.emit(change);
  }

  effect(effect: Effect, kind: string, path: string, what: string): void {
    const d = this.ctx.direction;
    const e = this.frame.negated ? invert(effect) : effect;
    this.report(levelOf(d, e), kind, path, what, CONSEQUENCE[d][e]);
  }

  /** A level set by a protocol convention (servers ignore unknown params, clients unknown result
   *  fields) for a change whose effect on the values is `effect`. Under `not` or in a condition the
   *  convention does not apply (there the subschema's narrowing may be the whole's widening): the
   *  effect decides. */
  private conventional(level: Level, effect: Effect, kind: string, path: string, what: string, why: string): void {
    if (this.frame.strict) this.effect(effect, kind, path, what);
    else this.report(level, kind, path, what, why);
  }

  newFieldConstraint(field: string, path: string, what: string): void {
    const why =
      this.ctx.direction === 'request'
        ? `it binds only requests that carry the new field "${field}", which existing clients do not send`
        : `it binds only values that carry the new field "${field}", which existing servers do not send`;
    this.conventional('INFO', 'narrowed', 'new-field-constraint', path, what, why);
  }

  unreasoned(keyword: string, path: string, what: string): void {
    const why = KEYWORDS[keyword]?.by;
    this.report(
      'WARN',
      'unreasoned',
      path,
      what,
      `${UNPROVEN}: the diff does not reason about \`${keyword}\` here${why ? ` (${why})` : ''}; review by hand`,
    );
  }

  /** A change whose effect on the values the diff can prove neither way: WARN, saying why. */
  private unproven(kind: string, path: string, what: string, why: string): void {
    this.report('WARN', kind, path, what, `${UNPROVEN}: ${why}; review by hand`);
  }

  inside(via: string, how: Inside, f: () => void): void {
    const before = this.frame;
    this.frame = {
      negated: before.negated !== (how.negate ?? false),
      strict: before.strict || (how.negate ?? false) || (how.strict ?? false),
      caps: how.cap ? [...before.caps, how.cap] : before.caps,
      blind: how.blind ? [...before.blind, how.blind] : before.blind,
      via: via ? [...before.via, via] : before.via,
    };
    try {
      f();
    } finally {
      this.frame = before;
    }
  }

  compare(a: Schema, b: Schema, path: string): void {
    if (canonical(a) === canonical(b)) return;
    if (isNothing(a) !== isNothing(b)) {
      if (isNothing(a)) return this.effect('widened', 'now-allowed', path, `now allows ${brief(b)} (allowed nothing)`);
      return this.effect('narrowed', 'now-refused', path, 'now allows nothing');
    }
    const ua = defUse(a);
    const ub = defUse(b);
    if (ua && ub && ua.def === ub.def) return this.uses(ua, ub, path);
    // What unevaluated* sees depends on every other keyword here (and on the subschemas they apply
    // in place, and on how many items or which properties those keywords reach): nothing else
    // changed here is proven safe.
    const beside = applicators.unevaluatedBeside(a, b);
    this.inside('', beside ? { cap: beside } : {}, () => this.keywords(a, b, path));
    applicators.unevaluated(this, ...sameTypes(a, b), path);
  }

  private keywords(a: Schema, b: Schema, path: string): void {
    if (this.alternatives(a, b, path)) return;
    if (this.unionAgainstBranch(a, b, path)) return this.annotations(a, b, path);
    this.types(a, b, path);
    this.values(a, b, path);
    // A keyword of one type (minLength, required, …) changes something only where both sides allow that
    // type: on a type only one side allows, the type change above says it all (a constraint "added" to
    // objects that were refused before refuses no value a client sent).
    const [x, y] = sameTypes(a, b);
    this.bounds(x, y, path);
    this.pattern(x.pattern, y.pattern, path);
    this.format(x.format, y.format, path);
    // Beside an explicit multipleOf, an integer side's is 1 (normalisation drops `multipleOf: 1` there).
    const [ma, mb] = [x.multipleOf, y.multipleOf];
    this.multipleOf(
      ma ?? (mb === undefined ? undefined : integerStep(x)),
      mb ?? (ma === undefined ? undefined : integerStep(y)),
      path,
    );
    this.objects(x, y, path);
    applicators.patternProperties(this, x, y, path);
    applicators.propertyNames(this, x, y, path);
    applicators.dependentRequired(this, x, y, path);
    applicators.dependentSchemas(this, x, y, path);
    if (!applicators.tuple(this, x, y, path) && (x.items !== undefined || y.items !== undefined))
      this.items(x, y, path);
    applicators.contains(this, x, y, path);
    this.unions(a, b, path);
    this.allOf(a, b, path);
    applicators.conditional(this, a, b, path);
    applicators.not(this, a, b, path);
    this.annotations(a, b, path);
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (HANDLED.has(k) || canonical(a[k]) === canonical(b[k])) continue;
      // Annotations reach this far only where inline.ts keeps them: `$defs` a `$dynamicRef` may use.
      if (ANNOTATIONS.has(k))
        this.unreasoned('$dynamicRef', path, `\`${k}\` changed, where a \`$dynamicRef\` may resolve`);
      else if (KEYWORDS[k]) this.unreasoned(k, path, `\`${k}\` ${brief(a[k])} → ${brief(b[k])}`);
      else
        this.report(
          'WARN',
          'keyword-changed',
          path,
          `keyword "${k}" changed from ${show(a[k])} to ${show(b[k])}`,
          `${UNPROVEN}: not classified; review by hand`,
        );
    }
  }

  /** Both uses of one `$ref` target: the target's own change (once per target, see group.ts), then
   *  the change of the keywords at this use, against the new target on both sides. */
  private uses(ua: DefUse, ub: DefUse, path: string): void {
    if (canonical(ua.body) !== canonical(ub.body)) {
      this.defs.push({ name: ua.def, base: path });
      try {
        this.compare(ua.body, ub.body, path);
      } finally {
        this.defs.pop();
      }
    }
    if (canonical(ua.site) !== canonical(ub.site)) {
      const before = mergeSchemas([ub.body, ua.site]) ?? { ...ub.body, ...ua.site };
      const after = mergeSchemas([ub.body, ub.site]) ?? { ...ub.body, ...ub.site };
      this.compare({ ...before }, { ...after }, path);
    }
  }

  /** Typed alternatives (one branch per JSON type, normalise.ts) matched by type: a type only in the
   *  new schema widens, one only in the old schema narrows, branches of one type are compared. False
   *  when both sides have the same single type (or one side allows every type): compare() goes on. */
  private alternatives(a: Schema, b: Schema, path: string): boolean {
    const xa = alternativesOf(a);
    const xb = alternativesOf(b);
    if (!xa || !xb) return false;
    const keys = (x: Alternatives) => x.branches.map((br) => typeKey(String(br.type)) ?? String(br.type));
    const ka = keys(xa);
    const kb = keys(xb);
    if (ka.length === 1 && kb.length === 1 && ka[0] === kb[0]) return false;
    this.compare(xa.common, xb.common, path);
    const added: Schema[] = [];
    const removed: Schema[] = [];
    for (const key of [...new Set([...ka, ...kb])]) {
      const ys = xa.branches.filter((_, i) => ka[i] === key);
      const zs = xb.branches.filter((_, i) => kb[i] === key);
      if (ys.length === 0) added.push(...zs);
      else if (zs.length === 0) removed.push(...ys);
      else if (ys.length === 1 && zs.length === 1) this.compare(ys[0]!, zs[0]!, path);
      else {
        const onlyY = ys.filter((y) => !zs.some((z) => canonical(z) === canonical(y)));
        const onlyZ = zs.filter((z) => !ys.some((y) => canonical(z) === canonical(y)));
        if (onlyY.length === 1 && onlyZ.length === 1) this.compare(onlyY[0]!, onlyZ[0]!, path);
        else {
          added.push(...onlyZ);
          removed.push(...onlyY);
        }
      }
    }
    const names = (x: Alternatives) => x.branches.map((br) => String(br.type)).join(' | ');
    if (added.length > 0 && removed.length > 0 && added.every((x) => !removed.some((y) => x.type === y.type))) {
      this.effect('changed', 'type-changed', path, `type ${names(xa)} → ${names(xb)}`);
      return true;
    }
    for (const br of added) {
      if (br.type === 'null') this.effect('widened', 'made-nullable', path, 'now nullable');
      else this.effect('widened', 'union-branch-added', path, `now also allows ${brief(br)}`);
    }
    for (const br of removed) {
      if (br.type === 'null') this.effect('narrowed', 'made-non-nullable', path, 'no longer nullable');
      else this.effect('narrowed', 'union-branch-removed', path, `no longer allows ${brief(br)}`);
    }
    return true;
  }

  private types(a: Schema, b: Schema, path: string): void {
    if (Array.isArray(a.enum) && Array.isArray(b.enum)) return; // the values say it (values())
    const ta = typeSet(a);
    const tb = typeSet(b);
    if (ta === null && tb === null) return;
    if (ta === null)
      return this.effect('narrowed', 'type-narrowed', path, `type constrained to ${[...tb!].join(' | ')}`);
    if (tb === null)
      return this.effect('widened', 'type-widened', path, `type constraint ${[...ta].join(' | ')} removed`);
    const added = [...tb].filter((t) => !covers(ta, t));
    const removed = [...ta].filter((t) => !covers(tb, t));
    if (added.length === 0 && removed.length === 0) return;
    const effect: Effect = removed.length === 0 ? 'widened' : added.length === 0 ? 'narrowed' : 'changed';
    if (effect === 'widened' && added.length === 1 && added[0] === 'null') {
      return this.effect('widened', 'made-nullable', path, 'now nullable');
    }
    const kind = effect === 'widened' ? 'type-widened' : effect === 'narrowed' ? 'type-narrowed' : 'type-changed';
    this.effect(effect, kind, path, `type ${[...ta].join(' | ')} → ${[...tb].join(' | ')}`);
  }

  private values(a: Schema, b: Schema, path: string): void {
    const va = enumValues(a);
    const vb = enumValues(b);
    if (va === null && vb === null) return;
    const owned = this.ctx.isIndexOwnedEnum;
    if (owned?.([...(va ?? []), ...(vb ?? [])])) return;
    if (va === null) return this.effect('narrowed', 'enum-added', path, `restricted to ${vb!.map(show).join(', ')}`);
    if (vb === null)
      return this.effect('widened', 'enum-removed', path, `no longer restricted to ${va.map(show).join(', ')}`);
    const ka = new Set(va.map(canonical));
    const kb = new Set(vb.map(canonical));
    const added = vb.filter((v) => !ka.has(canonical(v)));
    const removed = va.filter((v) => !kb.has(canonical(v)));
    if (added.length > 0)
      this.effect(
        'widened',
        'enum-value-added',
        path,
        `new value${added.length > 1 ? 's' : ''} ${added.map(show).join(', ')}`,
      );
    if (removed.length > 0)
      this.effect(
        'narrowed',
        'enum-value-removed',
        path,
        `value${removed.length > 1 ? 's' : ''} ${removed.map(show).join(', ')} removed`,
      );
  }

  private bounds(a: Schema, b: Schema, path: string): void {
    if ((a.uniqueItems === true) !== (b.uniqueItems === true)) {
      const unique = b.uniqueItems === true;
      this.effect(
        unique ? 'narrowed' : 'widened',
        unique ? 'bound-tightened' : 'bound-relaxed',
        path,
        `uniqueItems ${show(a.uniqueItems)} → ${show(b.uniqueItems)}`,
      );
    }
    // minimum/exclusiveMinimum (and the maxima) as one bound each: the normaliser keeps one of them.
    for (const [incl, excl, lower] of NUMBER_BOUNDS) {
      const bound = (s: Schema) =>
        typeof s[excl] === 'number'
          ? { v: s[excl], excl: true, key: excl }
          : typeof s[incl] === 'number'
            ? { v: s[incl], excl: false, key: incl }
            : undefined;
      const x = bound(a);
      const y = bound(b);
      if (x?.v === y?.v && x?.excl === y?.excl) continue;
      const what = `${x ? `${x.key} ${show(x.v)}` : `no ${incl}`} → ${y ? `${y.key} ${show(y.v)}` : `no ${incl}`}`;
      let effect: Effect;
      if (!x) effect = 'narrowed';
      else if (!y) effect = 'widened';
      else {
        const tighter = lower ? y.v > x.v || (y.v === x.v && y.excl) : y.v < x.v || (y.v === x.v && y.excl);
        effect = tighter ? 'narrowed' : 'widened';
      }
      this.effect(effect, effect === 'narrowed' ? 'bound-tightened' : 'bound-relaxed', path, what);
    }
    for (const [keys, lower] of [
      [LOWER_BOUNDS, true],
      [UPPER_BOUNDS, false],
    ] as const) {
      for (const k of keys) {
        const x = a[k];
        const y = b[k];
        if (canonical(x) === canonical(y)) continue;
        const what = `${k} ${show(x)} → ${show(y)}`;
        if ((x !== undefined && typeof x !== 'number') || (y !== undefined && typeof y !== 'number')) {
          this.unproven('bound-changed', path, what, `\`${k}\` that is not a number bounds nothing the diff knows`);
          continue;
        }
        const effect: Effect =
          x === undefined ? 'narrowed' : y === undefined ? 'widened' : y > x === lower ? 'narrowed' : 'widened';
        this.effect(effect, effect === 'narrowed' ? 'bound-tightened' : 'bound-relaxed', path, what);
      }
    }
  }

  /** Fields by name. Levels follow the protocol's conventions (docs/maintainers.md: servers ignore
   *  unknown params, clients ignore unknown result fields); each change also carries its effect on the
   *  values, which decides under `not`. */
  private objects(a: Schema, b: Schema, path: string): void {
    const pa = isObject(a.properties) ? a.properties : {};
    const pb = isObject(b.properties) ? b.properties : {};
    const ra = new Set(stringList(a.required));
    const rb = new Set(stringList(b.required));
    const names = new Set([...Object.keys(pa), ...Object.keys(pb), ...ra, ...rb]);
    const request = this.ctx.direction === 'request';
    const closedA = a.additionalProperties === false;
    const closedB = b.additionalProperties === false;
    for (const name of [...names].sort()) {
      const p = join(path, name);
      const inA = name in pa || ra.has(name);
      const inB = name in pb || rb.has(name);
      const say = (level: Level, effect: Effect, kind: string, detail: string, why: string) =>
        this.conventional(level, effect, kind, p, detail, why);
      if (!inA && inB) {
        const detail = rb.has(name) ? 'new required field' : 'new optional field';
        // Where unknown fields were refused, a new optional one is allowed: otherwise it constrains.
        const effect: Effect = closedA ? (rb.has(name) ? 'changed' : 'widened') : 'narrowed';
        const condition = conditionOf(pb[name]);
        if (request && rb.has(name))
          say(
            'ERR',
            effect,
            'param-required-added',
            detail,
            'existing clients do not send it, so the server rejects their requests',
          );
        else if (request && condition) {
          say(
            'WARN',
            effect,
            'param-conditionally-required-added',
            `${detail}, but "${condition}"`,
            'servers in that configuration refuse existing clients, which do not send it',
          );
        } else if (request) say('INFO', effect, 'param-optional-added', detail, 'existing clients may omit it');
        else say('INFO', effect, 'field-added', detail, 'existing clients ignore it');
        continue;
      }
      if (inA && !inB) {
        const detail = ra.has(name) ? 'required field removed' : 'optional field removed';
        const effect: Effect = closedB ? (ra.has(name) ? 'changed' : 'narrowed') : 'widened';
        if (request && closedB)
          say(
            'ERR',
            effect,
            'param-removed',
            detail,
            'unknown fields are refused: the server rejects existing clients that send it',
          );
        else if (request)
          say('WARN', effect, 'param-removed', detail, 'the server ignores it when existing clients send it');
        else if (ra.has(name)) say('ERR', effect, 'field-removed', detail, 'existing clients rely on it');
        else say('WARN', effect, 'field-removed', detail, 'existing clients reading it get nothing');
        continue;
      }
      if (ra.has(name) && !rb.has(name)) {
        if (request)
          say('INFO', 'widened', 'param-made-optional', 'no longer required', 'existing clients send it anyway');
        else
          say(
            'ERR',
            'widened',
            'field-made-optional',
            'no longer required',
            'no longer always present, and existing clients rely on it',
          );
      } else if (!ra.has(name) && rb.has(name)) {
        if (request)
          say('ERR', 'narrowed', 'param-made-required', 'now required', 'existing clients that omit it are rejected');
        else say('INFO', 'narrowed', 'field-made-required', 'now required', 'now always present');
      }
      const wasConditional = conditionOf(pa[name]);
      const isConditional = conditionOf(pb[name]);
      // A condition in prose allows the same values: it matters only where the convention applies.
      if (request && !this.frame.strict && !rb.has(name) && isConditional && isConditional !== wasConditional) {
        this.report(
          'WARN',
          'param-conditionally-required',
          p,
          `now "${isConditional}"`,
          'servers in that configuration refuse existing clients that omit it',
        );
      }
      this.compare(asSchema(pa[name]), asSchema(pb[name]), p);
    }
    this.additional(a.additionalProperties, b.additionalProperties, path);
  }

  private additional(x: Json | undefined, y: Json | undefined, path: string): void {
    if (canonical(x) === canonical(y)) return;
    const open = (v: Json | undefined) => v === undefined || v === true || canonical(v) === '{}';
    if (open(x) && y === false) {
      return this.effect('narrowed', 'closed', path, 'unknown fields now refused');
    }
    // `additionalProperties: true` allows every value but marks the other properties evaluated.
    if (open(x) && open(y))
      return this.unreasoned(
        'additionalProperties',
        path,
        `\`additionalProperties\` ${show(x)} → ${show(y)}, which \`unevaluatedProperties\` sees`,
      );
    if (x === false && open(y)) {
      // Extra fields in a response are ignorable by convention, but strict validators of the old schema reject them.
      if (this.ctx.direction === 'response')
        return this.conventional(
          'WARN',
          'widened',
          'opened',
          path,
          'unknown fields now allowed',
          'clients validating strictly against the old schema reject them',
        );
      return this.effect('widened', 'opened', path, 'unknown fields now allowed');
    }
    this.compare(asSchema(x), asSchema(y), join(path, '*'));
  }

  private items(a: Schema, b: Schema, path: string): void {
    const ia = a.items;
    const ib = b.items;
    if (canonical(ia) === canonical(ib)) return;
    // An array of schemas is the `items` of drafts before 2020-12 (`prefixItems` now).
    if (Array.isArray(ia) || Array.isArray(ib))
      return this.unreasoned('items', path, `\`items\` ${brief(ia)} → ${brief(ib)} (an array: not draft 2020-12)`);
    // `items: true` allows every item but marks them all evaluated.
    if (canonical(asSchema(ia)) === canonical(asSchema(ib)))
      return this.unreasoned('items', path, `\`items\` ${show(ia)} → ${show(ib)}, which \`unevaluatedItems\` sees`);
    if (ia === undefined) return this.effect('narrowed', 'items-constrained', join(path, '[]'), 'items constrained');
    if (ib === undefined)
      return this.effect('widened', 'items-unconstrained', join(path, '[]'), 'items no longer constrained');
    this.compare(asSchema(ia), asSchema(ib), join(path, '[]'));
  }

  private pattern(x: Json | undefined, y: Json | undefined, path: string): void {
    if (typeof x !== 'string' || typeof y !== 'string') return this.opaque('pattern', x, y, path);
    if (x === y) return;
    const r = comparePatterns(x, y);
    // true: proven, false: disproven, null: not decidable here.
    const narrows = r.oldInNew.holds === null ? null : !r.oldInNew.holds;
    const widens = r.newInOld.holds === null ? null : !r.newInOld.holds;
    if (narrows === false && widens === false) return; // the same language, spelled differently
    const examples = [
      r.oldInNew.witness !== undefined ? `${show(r.oldInNew.witness)} no longer matches` : '',
      r.newInOld.witness !== undefined ? `${show(r.newInOld.witness)} now matches` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const what = `pattern ${show(x)} → ${show(y)}${examples ? ` (${examples})` : ''}`;
    const kind = (e: Effect) =>
      e === 'narrowed' ? 'pattern-tightened' : e === 'widened' ? 'pattern-relaxed' : 'constraint-changed';
    if (narrows !== null && widens !== null) {
      const e: Effect = narrows && widens ? 'changed' : narrows ? 'narrowed' : 'widened';
      return this.effect(e, kind(e), path, what);
    }
    // One direction is unknown: decide by the one that breaks this direction's clients (under
    // `not`, the pattern's widening is what narrows the whole).
    const request = this.ctx.direction === 'request';
    const breaking: Effect = request !== this.frame.negated ? 'narrowed' : 'widened';
    const known = breaking === 'narrowed' ? narrows : widens;
    if (known !== null) {
      const e: Effect = known ? breaking : invert(breaking);
      return this.effect(e, kind(e), path, what);
    }
    const question = request
      ? 'still allows every value existing clients may send'
      : 'allows only values existing clients expect';
    this.report(
      'WARN',
      'pattern-undecided',
      path,
      what,
      `${UNPROVEN}: whether the new ${this.frame.negated ? 'schema' : 'pattern'} ${question} cannot be decided mechanically; review by hand`,
    );
  }

  private format(x: Json | undefined, y: Json | undefined, path: string): void {
    if (typeof x !== 'string' || typeof y !== 'string' || x === y) return this.opaque('format', x, y, path);
    const e = formatChange(x, y);
    const what = `format ${show(x)} → ${show(y)}`;
    if (e === 'unrelated')
      return this.unproven(
        'format-replaced',
        path,
        what,
        'which strings one format allows and the other does not is not known to the diff',
      );
    this.effect(e, e === 'narrowed' ? 'format-narrowed' : 'format-widened', path, what);
  }

  private multipleOf(x: Json | undefined, y: Json | undefined, path: string): void {
    if (typeof x !== 'number' || typeof y !== 'number' || x === y) return this.opaque('multipleOf', x, y, path);
    const e: Effect = Number.isInteger(y / x) ? 'narrowed' : Number.isInteger(x / y) ? 'widened' : 'changed';
    this.effect(
      e,
      e === 'narrowed' ? 'bound-tightened' : e === 'widened' ? 'bound-relaxed' : 'constraint-changed',
      path,
      `multipleOf ${show(x)} → ${show(y)}`,
    );
  }

  /** anyOf / oneOf, each compared on its own. anyOf: branches only in the new schema widen, branches
   *  only in the old one narrow. A oneOf left after normalisation may have overlapping branches
   *  (exactly one must hold), so a branch added or removed there changes the set both ways. */
  private unions(a: Schema, b: Schema, path: string): void {
    for (const k of ['anyOf', 'oneOf'] as const) {
      const ua = unionOf(a, k);
      const ub = unionOf(b, k);
      if (ua === null && ub === null) continue;
      if (ua !== null && ub !== null) {
        const ka = ua.map(canonical);
        const kb = ub.map(canonical);
        const onlyA = ua.filter((_, i) => !kb.includes(ka[i]!));
        const onlyB = ub.filter((_, i) => !ka.includes(kb[i]!));
        if (onlyA.length === 1 && onlyB.length === 1) {
          // A value matching two branches of a oneOf is refused: widening one branch can narrow the whole,
          // and narrowing it widen the whole.
          const how = k === 'oneOf' ? { blind: ONE_OF_OVERLAP } : {};
          this.inside(k === 'oneOf' ? '`oneOf` branch' : '', how, () =>
            this.compare(asSchema(onlyA[0]), asSchema(onlyB[0]), path),
          );
          continue;
        }
        const list = (xs: Json[]) => `alternative${xs.length > 1 ? 's' : ''} ${xs.map((x) => brief(x)).join(', ')}`;
        // In a oneOf a branch added may only add values, or also refuse old ones that now match two.
        const say = (e: Effect, kind: string, what: string) =>
          k === 'oneOf' ? this.unproven(kind, path, what, ONE_OF_OVERLAP) : this.effect(e, kind, path, what);
        if (onlyB.length > 0) say('widened', 'union-branch-added', `${k} ${list(onlyB)} added`);
        if (onlyA.length > 0) say('narrowed', 'union-branch-removed', `${k} ${list(onlyA)} removed`);
        continue;
      }
      if (ua === null) {
        const kept = keptBranch(a, ub!);
        if (kept !== undefined)
          this.report(
            'INFO',
            'constraint-added-implied',
            path,
            `new constraint ${k} ${brief(ub!)}`,
            `every value the old schema allows matches its branch ${brief(kept)}, which asks only for fields the old schema required`,
            true,
          );
        else this.effect('narrowed', 'constraint-added', path, `new constraint ${k} ${brief(ub!)}`);
      } else this.effect('widened', 'constraint-removed', path, `constraint ${k} ${brief(ua)} removed`);
    }
  }

  /** One side is the other side's union with one branch kept (`string` → `string | string[]`; an
   *  object whose `anyOf` of required groups lost all but one: the kept one merges into the object). */
  private unionAgainstBranch(a: Schema, b: Schema, path: string): boolean {
    const ua = unionOf(a);
    const ub = unionOf(b);
    if ((ua === null) === (ub === null)) return false;
    const [plain, union] = ua === null ? [a, ub!] : [b, ua];
    const key = canonical(stripAnnotations(plain));
    const rest = withoutUnion(stripAnnotations(ua === null ? b : a));
    const kept = (br: Json) => (Object.keys(rest).length === 0 ? br : mergeSchemas([rest, asSchema(br)]));
    const idx = union.findIndex((br) => canonical(kept(br) ?? undefined) === key);
    if (idx < 0) return false;
    const others = union
      .filter((_, i) => i !== idx)
      .map((x) => brief(x))
      .join(', ');
    // In a oneOf a value that also matches another branch is refused: neither a pure widening nor a
    // pure narrowing, unless the branches are disjoint (which normalisation would have shown).
    const exclusive = (ua === null ? b : a).oneOf !== undefined;
    if (ua === null) {
      const what = `now also allows ${others}${exclusive ? ' (oneOf)' : ''}`;
      if (exclusive) this.unproven('union-branch-added', path, what, ONE_OF_OVERLAP);
      else this.effect('widened', 'union-branch-added', path, what);
    } else {
      const what = `no longer allows ${others}${exclusive ? ' (was oneOf)' : ''}`;
      if (exclusive) this.unproven('union-branch-removed', path, what, ONE_OF_OVERLAP);
      else this.effect('narrowed', 'union-branch-removed', path, what);
    }
    return true;
  }

  /** Parts of an `allOf` normalisation could not merge, as a set of conjuncts: a part only in the new
   *  schema narrows, one only in the old schema widens, one part replaced by another is compared. */
  private allOf(a: Schema, b: Schema, path: string): void {
    const xa = Array.isArray(a.allOf) ? a.allOf : [];
    const xb = Array.isArray(b.allOf) ? b.allOf : [];
    const ka = xa.map(canonical);
    const kb = xb.map(canonical);
    const onlyA = xa.filter((_, i) => !kb.includes(ka[i]!));
    const onlyB = xb.filter((_, i) => !ka.includes(kb[i]!));
    if (onlyA.length === 1 && onlyB.length === 1) return this.compare(asSchema(onlyA[0]), asSchema(onlyB[0]), path);
    for (const x of onlyB) this.effect('narrowed', 'constraint-added', path, `new \`allOf\` part ${brief(x)}`);
    for (const x of onlyA) this.effect('widened', 'constraint-removed', path, `\`allOf\` part ${brief(x)} removed`);
  }

  /** A constraint added narrows and removed widens (every keyword here is a conjunct); one replaced
   *  by a value the comparison does not understand is left for review. */
  private opaque(keyword: string, x: Json | undefined, y: Json | undefined, path: string): void {
    if (canonical(x) === canonical(y)) return;
    if (x === undefined) this.effect('narrowed', 'constraint-added', path, `new ${keyword} constraint ${brief(y)}`);
    else if (y === undefined)
      this.effect('widened', 'constraint-removed', path, `${keyword} constraint ${brief(x)} removed`);
    else this.unreasoned(keyword, path, `${keyword} ${brief(x)} → ${brief(y)}`);
  }

  /** Annotations allow the same values: INFO needs no proof. Under `not` or in a condition they
   *  annotate nothing a client sends or a server returns. */
  private annotations(a: Schema, b: Schema, path: string): void {
    if (this.frame.strict) return;
    const request = this.ctx.direction === 'request';
    if (canonical(a.default) !== canonical(b.default)) {
      // A new default for a param that clients omit changes what those requests do.
      const level: Level = request && a.default !== undefined ? 'WARN' : 'INFO';
      this.report(
        level,
        'default-changed',
        path,
        `default ${show(a.default)} → ${show(b.default)}`,
        level === 'WARN' ? 'requests that omit it behave differently' : '',
        true,
      );
    }
    const note = (kind: string, what: string) => this.report('INFO', kind, path, what, '', true);
    if (a.deprecated !== true && b.deprecated === true) note('deprecated', 'deprecated');
    if (a.deprecated === true && b.deprecated !== true) note('undeprecated', 'no longer deprecated');
    for (const k of ['readOnly', 'writeOnly']) {
      if (canonical(a[k]) !== canonical(b[k])) note('annotation-changed', `${k} ${show(a[k])} → ${show(b[k])}`);
    }
  }
}

function conditionOf(x: Json | undefined): string | undefined {
  const c = isObject(x) ? x[REQUIRED_WHEN] : undefined;
  return typeof c === 'string' ? c : undefined;
}

/** Types a schema allows (the branch types of typed alternatives), or null for every type. */
function typeSet(s: Schema): Set<string> | null {
  const alt = alternativesOf(s);
  if (alt) return new Set(alt.branches.flatMap((b) => typeList(b.type)));
  return s.type === undefined ? null : new Set(typeList(s.type));
}

function isTypedAnyOf(s: Schema): boolean {
  return (
    Array.isArray(s.anyOf) && s.anyOf.length > 0 && s.anyOf.every((b) => isObject(b) && typeof b.type === 'string')
  );
}

interface Alternatives {
  /** Keywords every alternative shares (defaults, annotations, `not`, …). */
  common: Schema;
  /** One schema per alternative, each of a single type. */
  branches: Schema[];
}

/** A normalised schema with a type as alternatives: its typed `anyOf`, or itself as one branch. */
function alternativesOf(s: Schema): Alternatives | null {
  if (isTypedAnyOf(s)) {
    const { anyOf, ...common } = s;
    return { common, branches: (anyOf as Json[]).filter(isObject) };
  }
  if (typeof s.type !== 'string') return null;
  const common: Schema = {};
  const branch: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' || k === 'enum' || KEYWORD_TYPE.has(k)) branch[k] = v;
    else common[k] = v;
  }
  return { common, branches: [branch] };
}

/** The types a schema allows by its `type`, else by its enum's values; null for every type. */
function allowedTypes(s: Schema): Set<string> | null {
  const values = enumValues(s);
  return typeSet(s) ?? (values ? new Set(values.map(typeOfValue)) : null);
}

/**
 * Both schemas without the keywords of a type only one of them allows (by `type` or enum values):
 * such a keyword constrains no value the other side allows, and the type change says it all.
 */
function sameTypes(a: Schema, b: Schema): [Schema, Schema] {
  const keys = (s: Schema) => {
    const t = allowedTypes(s);
    return t === null ? null : new Set([...t].map((x) => typeKey(x) ?? x));
  };
  const ka = keys(a);
  const kb = keys(b);
  const shared = ka === null ? kb : kb === null ? ka : new Set([...ka].filter((k) => kb.has(k)));
  if (shared === null) return [a, b];
  const only = (s: Schema): Schema =>
    Object.fromEntries(Object.entries(s).filter(([k]) => !KEYWORD_TYPE.has(k) || shared.has(KEYWORD_TYPE.get(k)!)));
  return [only(a), only(b)];
}

/** 1 where a schema allows integers and no other numbers, else undefined. */
function integerStep(s: Schema): number | undefined {
  const t = allowedTypes(s);
  return t?.has('integer') && !t.has('number') ? 1 : undefined;
}

function covers(set: Set<string>, t: string): boolean {
  return set.has(t) || (t === 'integer' && set.has('number'));
}

function enumValues(s: Schema): Json[] | null {
  if (s.const !== undefined) return [s.const];
  return Array.isArray(s.enum) ? s.enum : null;
}

/** The `anyOf` or `oneOf` of a schema; without `k`, whichever of the two the schema has, if it has
 *  only one. Typed alternatives on both sides never get here (alternatives() matches them by type);
 *  against a schema of another form they are a union like any other. */
function unionOf(s: Schema, k?: 'anyOf' | 'oneOf'): Json[] | null {
  if (k === undefined) {
    if (s.anyOf !== undefined && s.oneOf !== undefined) return null;
    return unionOf(s, s.oneOf !== undefined ? 'oneOf' : 'anyOf');
  }
  const u = s[k];
  return Array.isArray(u) ? u : null;
}

function stripAnnotations(s: Schema): Schema {
  const { default: _d, deprecated: _p, readOnly: _r, writeOnly: _w, ...rest } = s;
  return rest;
}

function withoutUnion(s: Schema): Schema {
  const { anyOf: _a, oneOf: _o, ...rest } = s;
  return rest;
}
