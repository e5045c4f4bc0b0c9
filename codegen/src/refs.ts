// Resolves $refs across the schema documents of one version and names every referable definition
// (root schemas and $defs entries), so the bundle and the docs agree on one name per definition.
import { pascalCase, rootSchemas, type RootSchema } from "./names";
import { stripHash, type JsonSchema, type Spec } from "./spec";

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
      const docName = pascalCase(doc.path.replace(/\.schema\.json$/, "").replace(/^.*\//, ""));
      for (const key of Object.keys(defs).sort()) {
        const def = defs[key]!;
        let name = typeof def.title === "string" && /^[A-Za-z_]\w*$/.test(def.title) ? def.title : pascalCase(key);
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
    const abs = new URL(ref, baseId).href;
    const id = stripHash(abs);
    const pointer = decodeURIComponent(abs.slice(id.length + 1));
    const key = `${id}#${pointer === "/" ? "" : pointer}`;
    const target = this.targets.get(key);
    if (!target) {
      throw new Error(
        `${this.spec.folder}: unsupported $ref "${ref}" (from ${baseId}): refs must point at a root schema or a $defs entry`,
      );
    }
    return target;
  }

  /** Follows $ref chains of a schema node (siblings of $ref are ignored here). */
  deref(schema: JsonSchema, baseId: string): { schema: JsonSchema; baseId: string } {
    let cur = { schema, baseId };
    for (let i = 0; i < 32 && typeof cur.schema.$ref === "string"; i++) {
      const t = this.resolve(cur.schema.$ref, cur.baseId);
      cur = { schema: t.schema, baseId: t.baseId };
    }
    return cur;
  }
}
