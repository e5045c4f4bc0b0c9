// $ref resolution across the schema documents of one version: `resolveRef` (any JSON pointer, for
// the diff and the tools) and `RefResolver`, which also names every referable definition (root
// schemas and $defs entries) so the generated types, validators and docs agree on one name each.
import { pascalCase, type RootSchema, rootSchemas } from './names';
import { ID_BASE, isObject, type Json, type JsonSchema, type Spec } from './spec';

/** The target of a $ref: the document holding it, the JSON pointer inside it ("" = the root) and the node. */
export interface RefTarget {
  path: string;
  pointer: string;
  schema: Json;
}

/**
 * Resolves `ref`, found in the schema document `fromPath` of `spec`: relative refs, absolute `$id`s of
 * the same version and JSON-pointer fragments. A ref leaving the version, or naming a missing
 * document or node, is an error naming both ends.
 */
export function resolveRef(spec: Spec, fromPath: string, ref: string): RefTarget {
  const base = `${ID_BASE}${spec.folder}/`;
  const url = new URL(ref, base + fromPath);
  const doc = url.href.split('#')[0]!;
  if (!doc.startsWith(base)) throw new Error(`${spec.folder}/${fromPath}: $ref ${ref} leaves version ${spec.version}`);
  const path = doc.slice(base.length);
  const target = spec.byPath.get(path);
  if (!target) throw new Error(`${spec.folder}/${fromPath}: $ref ${ref}: ${path} not found`);
  let pointer = decodeURIComponent(url.hash.replace(/^#/, ''));
  if (pointer === '/') pointer = '';
  let node: Json | undefined = target.schema;
  for (const raw of pointer ? pointer.replace(/^\//, '').split('/') : []) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
    if (node === undefined) throw new Error(`${spec.folder}/${fromPath}: $ref ${ref}: no ${pointer} in ${path}`);
  }
  return { path, pointer, schema: node };
}

export interface Target {
  /** Definition name in the bundle. */
  name: string;
  schema: JsonSchema;
  /** $id of the document holding the target: the base for $refs inside it. */
  baseId: string;
}

export class RefResolver {
  readonly roots: RootSchema[];
  /** Absolute URI (doc id + "#" + pointer) → target. */
  private readonly targets = new Map<string, Target>();

  constructor(readonly spec: Spec) {
    this.roots = rootSchemas(spec);
    const taken = new Set<string>();
    for (const r of this.roots) {
      this.targets.set(`${r.id}#`, { name: r.name, schema: spec.byId.get(r.id)!.schema, baseId: r.id });
      taken.add(r.name);
    }
    for (const doc of spec.docs) {
      const defs = doc.schema.$defs as Record<string, JsonSchema> | undefined;
      if (!defs) continue;
      const docName = pascalCase(doc.path.replace(/\.schema\.json$/, '').replace(/^.*\//, ''));
      for (const key of Object.keys(defs).sort()) {
        const def = defs[key]!;
        let name = typeof def.title === 'string' && /^[A-Za-z_]\w*$/.test(def.title) ? def.title : pascalCase(key);
        if (taken.has(name)) name = docName + pascalCase(key);
        if (taken.has(name)) throw new Error(`${spec.folder}/${doc.path}: cannot name $defs/${key} uniquely`);
        taken.add(name);
        this.targets.set(`${doc.id}#/$defs/${key}`, { name, schema: def, baseId: doc.id });
      }
    }
  }

  /** All named definitions, sorted by name. */
  definitions(): Target[] {
    return [...this.targets.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  resolve(ref: string, baseId: string): Target {
    const from = this.spec.byId.get(baseId);
    if (!from) throw new Error(`${this.spec.folder}: $ref ${ref} from unknown document ${baseId}`);
    return this.named(resolveRef(this.spec, from.path, ref), `"${ref}" (from ${baseId})`);
  }

  /** The named definition a resolved `$ref` points at (`what` names the ref in the error). */
  named(at: RefTarget, what = `to ${at.path}#${at.pointer}`): Target {
    const target = this.targets.get(`${this.spec.byPath.get(at.path)!.id}#${at.pointer}`);
    if (!target) {
      throw new Error(
        `${this.spec.folder}: unsupported $ref ${what}: refs must point at a root schema or a $defs entry`,
      );
    }
    return target;
  }

  /** Follows $ref chains of a schema node (siblings of $ref are ignored here). */
  deref(schema: JsonSchema, baseId: string): { schema: JsonSchema; baseId: string } {
    let cur = { schema, baseId };
    for (let i = 0; i < 32 && typeof cur.schema.$ref === 'string'; i++) {
      const t = this.resolve(cur.schema.$ref, cur.baseId);
      cur = { schema: t.schema, baseId: t.baseId };
    }
    return cur;
  }
}
