// Direction-aware comparison of two (inlined) JSON Schemas. A change narrows the set of values the
// schema allows, widens it, or changes it both ways; whom that breaks depends on who sends the value:
// narrowing what a server accepts breaks clients that send the old values, widening what a server
// returns breaks clients that only understand the old values.
import { isObject, type Json, type JsonObject } from '../../codegen/src/spec';
import { ANNOTATIONS, canonical, REQUIRED_WHEN } from './inline';
import type { Change, Direction, Effect, Level } from './types';

export interface SchemaDiffContext {
  direction: Direction;
  /** e.g. "topic /app/vscode/edit/find params"; copied into every change. */
  location: string;
  /** Enumerations the index diff reports itself (topic lists, error codes, the version string). */
  isIndexOwnedEnum?: (values: Json[]) => boolean;
  emit(change: Change): void;
}

/** Level of a change by its effect: breaking is narrowing for requests, widening for responses. */
export function levelOf(direction: Direction, effect: Effect): Level {
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

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Constraints compared as a whole: added narrows, removed widens, altered changes. */
const OPAQUE = [
  'pattern', 'format', 'multipleOf', 'uniqueItems', 'not', 'dependentRequired', 'dependentSchemas',
  'patternProperties', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'contains',
  'minContains', 'maxContains', 'prefixItems', 'contentEncoding', 'contentMediaType',
];
const HANDLED = new Set([
  'type', 'enum', 'const', 'default', 'deprecated', 'readOnly', 'writeOnly', 'properties', 'required',
  'additionalProperties', 'items', REQUIRED_WHEN, 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else',
  ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...OPAQUE,
]);

type Schema = JsonObject;

function asSchema(x: Json | undefined): Schema {
  if (x === false) return { not: {} };
  return isObject(x) ? x : {};
}

function join(path: string, key: string): string {
  if (key === '[]') return `${path}[]`;
  return path ? `${path}.${key}` : key;
}

/** A value as JSON in a code span (Markdown renders it verbatim; text output keeps the backticks). */
function show(x: Json | undefined): string {
  return x === undefined ? '(none)' : `\`${JSON.stringify(x)}\``;
}

/** Long constraints (conditionals, unions) abbreviated for one-line messages. */
function brief(x: Json | undefined, max = 100): string {
  const s = x === undefined ? '' : JSON.stringify(x);
  return x === undefined ? show(x) : `\`${s.length > max ? `${s.slice(0, max - 1)}…` : s}\``;
}

export function diffSchemas(oldS: Json, newS: Json, ctx: SchemaDiffContext, path = ''): void {
  new SchemaDiff(ctx).compare(asSchema(oldS), asSchema(newS), path);
}

class SchemaDiff {
  constructor(private readonly ctx: SchemaDiffContext) {}

  private emit(level: Level, kind: string, path: string, message: string): void {
    this.ctx.emit({ level, kind, location: this.ctx.location, path, message });
  }

  private effect(effect: Effect, kind: string, path: string, what: string): void {
    const d = this.ctx.direction;
    this.emit(levelOf(d, effect), kind, path, `${what}: ${CONSEQUENCE[d][effect]}`);
  }

  compare(a: Schema, b: Schema, path: string): void {
    if (canonical(a) === canonical(b)) return;
    if (this.unionAgainstBranch(a, b, path)) return this.annotations(a, b, path);
    this.types(a, b, path);
    this.values(a, b, path);
    this.bounds(a, b, path);
    this.objects(a, b, path);
    if (a.items !== undefined || b.items !== undefined) this.items(a, b, path);
    this.unions(a, b, path);
    this.allOf(a, b, path);
    this.conditional(a, b, path);
    for (const k of OPAQUE) this.opaque(k, a[k], b[k], path);
    this.annotations(a, b, path);
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (HANDLED.has(k) || ANNOTATIONS.has(k) || canonical(a[k]) === canonical(b[k])) continue;
      this.emit('WARN', 'keyword-changed', path, `keyword "${k}" changed from ${show(a[k])} to ${show(b[k])}: not classified, review by hand`);
    }
  }

  private types(a: Schema, b: Schema, path: string): void {
    const ta = typeSet(a.type);
    const tb = typeSet(b.type);
    if (ta === null && tb === null) return;
    if (ta === null) return this.effect('narrowed', 'type-narrowed', path, `type constrained to ${[...tb!].join(' | ')}`);
    if (tb === null) return this.effect('widened', 'type-widened', path, `type constraint ${[...ta].join(' | ')} removed`);
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
    if (owned && owned([...(va ?? []), ...(vb ?? [])])) return;
    if (va === null) return this.effect('narrowed', 'enum-added', path, `restricted to ${vb!.map(show).join(', ')}`);
    if (vb === null) return this.effect('widened', 'enum-removed', path, `no longer restricted to ${va.map(show).join(', ')}`);
    const ka = new Set(va.map(canonical));
    const kb = new Set(vb.map(canonical));
    const added = vb.filter((v) => !ka.has(canonical(v)));
    const removed = va.filter((v) => !kb.has(canonical(v)));
    if (added.length > 0) this.effect('widened', 'enum-value-added', path, `new value${added.length > 1 ? 's' : ''} ${added.map(show).join(', ')}`);
    if (removed.length > 0) this.effect('narrowed', 'enum-value-removed', path, `value${removed.length > 1 ? 's' : ''} ${removed.map(show).join(', ')} removed`);
  }

  private bounds(a: Schema, b: Schema, path: string): void {
    for (const [keys, lower] of [[LOWER_BOUNDS, true], [UPPER_BOUNDS, false]] as const) {
      for (const k of keys) {
        const x = a[k];
        const y = b[k];
        if (canonical(x) === canonical(y)) continue;
        let effect: Effect;
        if (x === undefined) effect = 'narrowed';
        else if (y === undefined) effect = 'widened';
        else if (typeof x !== 'number' || typeof y !== 'number') effect = 'changed';
        else effect = (y > x) === lower ? 'narrowed' : 'widened';
        const kind = effect === 'narrowed' ? 'bound-tightened' : effect === 'widened' ? 'bound-relaxed' : 'bound-changed';
        this.effect(effect, kind, path, `${k} ${show(x)} → ${show(y)}`);
      }
    }
  }

  private objects(a: Schema, b: Schema, path: string): void {
    const pa = isObject(a.properties) ? a.properties : {};
    const pb = isObject(b.properties) ? b.properties : {};
    const ra = new Set(stringList(a.required));
    const rb = new Set(stringList(b.required));
    const names = new Set([...Object.keys(pa), ...Object.keys(pb), ...ra, ...rb]);
    const request = this.ctx.direction === 'request';
    const closedB = b.additionalProperties === false;
    for (const name of [...names].sort()) {
      const p = join(path, name);
      const inA = name in pa || ra.has(name);
      const inB = name in pb || rb.has(name);
      if (!inA && inB) {
        if (request && rb.has(name)) this.emit('ERR', 'param-required-added', p, 'new required field: existing clients do not send it, so the server rejects their requests');
        else if (request && conditionOf(pb[name])) {
          this.emit('WARN', 'param-conditionally-required-added', p, `new field, optional in the schema but "${conditionOf(pb[name])}": servers in that configuration refuse existing clients, which do not send it`);
        } else if (request) this.emit('INFO', 'param-optional-added', p, 'new optional field: existing clients may omit it');
        else this.emit('INFO', 'field-added', p, 'new field: existing clients ignore it');
        continue;
      }
      if (inA && !inB) {
        if (request && closedB) this.emit('ERR', 'param-removed', p, 'field removed and unknown fields are refused: the server rejects existing clients that send it');
        else if (request) this.emit('WARN', 'param-removed', p, 'field removed: the server ignores it when existing clients send it');
        else if (ra.has(name)) this.emit('ERR', 'field-removed', p, 'required field removed: existing clients rely on it');
        else this.emit('WARN', 'field-removed', p, 'optional field removed: existing clients reading it get nothing');
        continue;
      }
      if (ra.has(name) && !rb.has(name)) {
        if (request) this.emit('INFO', 'param-made-optional', p, 'no longer required: existing clients send it anyway');
        else this.emit('ERR', 'field-made-optional', p, 'no longer always present: existing clients rely on it');
      } else if (!ra.has(name) && rb.has(name)) {
        if (request) this.emit('ERR', 'param-made-required', p, 'now required: existing clients that omit it are rejected');
        else this.emit('INFO', 'field-made-required', p, 'now always present');
      }
      const wasConditional = conditionOf(pa[name]);
      const isConditional = conditionOf(pb[name]);
      if (request && !rb.has(name) && isConditional && isConditional !== wasConditional) {
        this.emit('WARN', 'param-conditionally-required', p, `now "${isConditional}": servers in that configuration refuse existing clients that omit it`);
      }
      this.compare(asSchema(pa[name]), asSchema(pb[name]), p);
    }
    this.additional(a.additionalProperties, b.additionalProperties, path);
  }

  private additional(x: Json | undefined, y: Json | undefined, path: string): void {
    if (canonical(x) === canonical(y)) return;
    const open = (v: Json | undefined) => v === undefined || v === true;
    if (open(x) && y === false) {
      return this.effect('narrowed', 'closed', path, 'unknown fields now refused');
    }
    if (x === false && open(y)) {
      // Extra fields in a response are ignorable by convention, but strict validators of the old schema reject them.
      if (this.ctx.direction === 'response') return this.emit('WARN', 'opened', path, 'unknown fields now allowed: clients validating strictly against the old schema reject them');
      return this.effect('widened', 'opened', path, 'unknown fields now allowed');
    }
    if (isObject(x) && isObject(y)) return this.compare(x, y, join(path, '*'));
    this.effect('changed', 'additional-properties-changed', path, `additionalProperties ${show(x)} → ${show(y)}`);
  }

  private items(a: Schema, b: Schema, path: string): void {
    const ia = a.items;
    const ib = b.items;
    if (Array.isArray(ia) || Array.isArray(ib)) return this.opaque('items', ia, ib, path);
    if (ia === undefined) return this.effect('narrowed', 'items-constrained', join(path, '[]'), 'items constrained');
    if (ib === undefined) return this.effect('widened', 'items-unconstrained', join(path, '[]'), 'items no longer constrained');
    this.compare(asSchema(ia), asSchema(ib), join(path, '[]'));
  }

  /** anyOf / oneOf: branches only in the new schema widen, branches only in the old one narrow. */
  private unions(a: Schema, b: Schema, path: string): void {
    const ua = unionOf(a);
    const ub = unionOf(b);
    if (ua === null && ub === null) return;
    if (ua !== null && ub !== null) {
      const ka = ua.map(canonical);
      const kb = ub.map(canonical);
      const onlyA = ua.filter((_, i) => !kb.includes(ka[i]!));
      const onlyB = ub.filter((_, i) => !ka.includes(kb[i]!));
      if (onlyA.length === 1 && onlyB.length === 1) return this.compare(asSchema(onlyA[0]), asSchema(onlyB[0]), path);
      if (onlyB.length > 0) this.effect('widened', 'union-branch-added', path, `alternative${onlyB.length > 1 ? 's' : ''} added: ${onlyB.map((x) => brief(x)).join(', ')}`);
      if (onlyA.length > 0) this.effect('narrowed', 'union-branch-removed', path, `alternative${onlyA.length > 1 ? 's' : ''} removed: ${onlyA.map((x) => brief(x)).join(', ')}`);
      return;
    }
    if (ua === null) this.effect('narrowed', 'constraint-added', path, `new constraint anyOf ${brief(ub!)}`);
    else this.effect('widened', 'constraint-removed', path, `constraint anyOf ${brief(ua)} removed`);
  }

  /** One side is a plain schema equal to a branch of the other side's union: `string` → `string | string[]`. */
  private unionAgainstBranch(a: Schema, b: Schema, path: string): boolean {
    const ua = unionOf(a);
    const ub = unionOf(b);
    if ((ua === null) === (ub === null)) return false;
    const [plain, union] = ua === null ? [a, ub!] : [b, ua];
    const key = canonical(stripAnnotations(plain));
    const idx = union.findIndex((br) => canonical(br) === key);
    if (idx < 0 || Object.keys(withoutUnion(stripAnnotations(ua === null ? b : a))).length > 0) return false;
    const others = union.filter((_, i) => i !== idx).map((x) => brief(x)).join(', ');
    if (ua === null) this.effect('widened', 'union-branch-added', path, `now also allows ${others}`);
    else this.effect('narrowed', 'union-branch-removed', path, `no longer allows ${others}`);
    return true;
  }

  private allOf(a: Schema, b: Schema, path: string): void {
    const xa = Array.isArray(a.allOf) ? a.allOf : undefined;
    const xb = Array.isArray(b.allOf) ? b.allOf : undefined;
    if (xa && xb && xa.length === xb.length) {
      xa.forEach((s, i) => this.compare(asSchema(s), asSchema(xb[i]), path));
      return;
    }
    this.opaque('allOf', a.allOf, b.allOf, path);
  }

  private conditional(a: Schema, b: Schema, path: string): void {
    const pick = (s: Schema): Json | undefined =>
      s.if === undefined ? undefined : { if: s.if, then: s.then ?? true, else: s.else ?? true };
    this.opaque('if/then/else', pick(a), pick(b), path);
  }

  private opaque(keyword: string, x: Json | undefined, y: Json | undefined, path: string): void {
    if (canonical(x) === canonical(y)) return;
    if (x === undefined) this.effect('narrowed', 'constraint-added', path, `new ${keyword} constraint ${brief(y)}`);
    else if (y === undefined) this.effect('widened', 'constraint-removed', path, `${keyword} constraint ${brief(x)} removed`);
    else this.effect('changed', 'constraint-changed', path, `${keyword} ${brief(x)} → ${brief(y)}`);
  }

  private annotations(a: Schema, b: Schema, path: string): void {
    const request = this.ctx.direction === 'request';
    if (canonical(a.default) !== canonical(b.default)) {
      // A new default for a param that clients omit changes what those requests do.
      const level: Level = request && a.default !== undefined ? 'WARN' : 'INFO';
      this.emit(level, 'default-changed', path, `default ${show(a.default)} → ${show(b.default)}${level === 'WARN' ? ': requests that omit it behave differently' : ''}`);
    }
    if (a.deprecated !== true && b.deprecated === true) this.emit('INFO', 'deprecated', path, 'deprecated');
    if (a.deprecated === true && b.deprecated !== true) this.emit('INFO', 'undeprecated', path, 'no longer deprecated');
    for (const k of ['readOnly', 'writeOnly']) {
      if (canonical(a[k]) !== canonical(b[k])) this.emit('INFO', 'annotation-changed', path, `${k} ${show(a[k])} → ${show(b[k])}`);
    }
  }
}

function conditionOf(x: Json | undefined): string | undefined {
  const c = isObject(x) ? x[REQUIRED_WHEN] : undefined;
  return typeof c === 'string' ? c : undefined;
}

function typeSet(t: Json | undefined): Set<string> | null {
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return null;
}

function covers(set: Set<string>, t: string): boolean {
  return set.has(t) || (t === 'integer' && set.has('number'));
}

function enumValues(s: Schema): Json[] | null {
  if (s.const !== undefined) return [s.const];
  return Array.isArray(s.enum) ? s.enum : null;
}

function stringList(x: Json | undefined): string[] {
  return Array.isArray(x) ? x.filter((v): v is string => typeof v === 'string') : [];
}

function unionOf(s: Schema): Json[] | null {
  const u = s.anyOf ?? s.oneOf;
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
