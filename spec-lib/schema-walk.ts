// Reading schemas for the docs and the defaults table: type labels, merged object properties
// (through $ref and allOf), and flattened field rows ("matches[].line").
import { subschemaKind } from './keywords';
import type { RefResolver } from './refs';
import type { JsonSchema } from './spec';

/** A key as a JSON pointer segment. */
export const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every schema node of a document with its JSON pointer (values such as examples are not walked). */
export function* schemaNodes(schema: unknown, pointer = ''): Generator<[JsonSchema, string]> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  yield [node, pointer];
  for (const [k, v] of Object.entries(node)) {
    const kind = subschemaKind(k);
    if (kind === 'schema') yield* schemaNodes(v, `${pointer}/${k}`);
    else if (kind === 'list' && Array.isArray(v))
      for (let i = 0; i < v.length; i++) yield* schemaNodes(v[i], `${pointer}/${k}/${i}`);
    else if (kind === 'map' && typeof v === 'object' && v !== null) {
      for (const [name, s] of Object.entries(v)) yield* schemaNodes(s, `${pointer}/${k}/${escapePointer(name)}`);
    }
  }
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  /** JSON of the default, or "". */
  default: string;
  description: string;
  /** The version that added the field, when later than the object holding it; else "". */
  since: string;
}

/** Where a field's `since` comes from (codegen's FieldHistory): the version that added a property. */
export interface SinceOf {
  sinceOf(property: JsonSchema): string | undefined;
}

interface Located {
  schema: JsonSchema;
  baseId: string;
}

export class SchemaWalker {
  constructor(
    private readonly refs: RefResolver,
    private readonly history: SinceOf,
  ) {}

  private deref(l: Located): Located {
    return this.refs.deref(l.schema, l.baseId);
  }

  /** Properties (with their document base) and required names of an object schema, allOf merged. */
  objectShape(l: Located): { props: [string, Located][]; required: Set<string> } {
    const props: [string, Located][] = [];
    const required = new Set<string>();
    const visit = (node: Located) => {
      const d = this.deref(node);
      for (const part of (d.schema.allOf as JsonSchema[] | undefined) ?? []) visit({ schema: part, baseId: d.baseId });
      for (const [name, s] of Object.entries((d.schema.properties as Record<string, JsonSchema>) ?? {})) {
        const at = props.findIndex(([n]) => n === name);
        if (at >= 0) props.splice(at, 1);
        props.push([name, { schema: s, baseId: d.baseId }]);
      }
      for (const r of (d.schema.required as string[] | undefined) ?? []) required.add(r);
    };
    visit(l);
    return { props, required };
  }

  isObject(l: Located): boolean {
    const d = this.deref(l);
    return d.schema.type === 'object' || 'properties' in d.schema || Array.isArray(d.schema.allOf);
  }

  /** Human type label, e.g. `integer ≥ 0`, `string \| string[]`, `"error" \| "warning"`. */
  typeLabel(l: Located): string {
    const s = l.schema;
    // Siblings of a $ref (description, default) annotate; the type is the target's.
    if (typeof s.$ref === 'string') return this.typeLabel(this.deref(l));
    if ('const' in s) return JSON.stringify(s.const);
    if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (union) return union.map((u) => this.typeLabel({ schema: u, baseId: l.baseId })).join(' | ');
    const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
    if (types.length === 0 && this.isObject(l)) types.push('object');
    const labels = types.map((t) => {
      if (t === 'array') {
        const item = s.items ? this.typeLabel({ schema: s.items as JsonSchema, baseId: l.baseId }) : 'unknown';
        return item.includes(' ') ? `(${item})[]` : `${item}[]`;
      }
      const bounds: string[] = [];
      if (typeof s.minimum === 'number') bounds.push(`≥ ${s.minimum}`);
      if (typeof s.maximum === 'number') bounds.push(`≤ ${s.maximum}`);
      if (typeof s.minLength === 'number' && s.minLength > 0) bounds.push(`non-empty`);
      if (typeof s.pattern === 'string') bounds.push(`matching \`${s.pattern}\``);
      return [t, ...bounds].join(' ');
    });
    return labels.length > 0 ? labels.join(' | ') : 'any';
  }

  private description(l: Located): string {
    if (typeof l.schema.description === 'string') return l.schema.description;
    const d = this.deref(l);
    return typeof d.schema.description === 'string' ? d.schema.description : '';
  }

  private defaultOf(l: Located): unknown {
    if ('default' in l.schema) return l.schema.default;
    const d = this.deref(l);
    return 'default' in d.schema ? d.schema.default : undefined;
  }

  /** Top-level property defaults of an object schema (the params defaults handlers rely on). */
  defaults(l: Located): [string, unknown][] {
    const out: [string, unknown][] = [];
    for (const [name, p] of this.objectShape(l).props) {
      const v = this.defaultOf(p);
      if (v !== undefined) out.push([name, v]);
    }
    return out;
  }

  /** Field rows, nested objects flattened with "." and array items with "[]". */
  rows(l: Located, prefix = ''): FieldRow[] {
    const out: FieldRow[] = [];
    const { props, required } = this.objectShape(l);
    for (const [name, p] of props) {
      const full = prefix + name;
      const v = this.defaultOf(p);
      out.push({
        name: full,
        type: this.typeLabel(p),
        required: required.has(name),
        default: v === undefined ? '' : JSON.stringify(v),
        description: this.description(p),
        since: this.history.sinceOf(p.schema) ?? '',
      });
      const d = this.deref(p);
      if (d.schema.type === 'object' && d.schema.properties) out.push(...this.rows(d, `${full}.`));
      else if (d.schema.type === 'array' && d.schema.items) {
        const item = this.deref({ schema: d.schema.items as JsonSchema, baseId: d.baseId });
        if (this.isObject(item) && !item.schema.anyOf) out.push(...this.rows(item, `${full}[].`));
      }
    }
    return out;
  }
}
