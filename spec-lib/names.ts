// Naming rules shared by every generator, so a schema has the same name in types, validators and docs.
import type { Spec } from './spec';

export function pascalCase(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** A root schema that becomes one exported type and one validator. */
export interface RootSchema {
  /** Type name, e.g. "EditFindParams", "HandshakeRequest". */
  name: string;
  /** Validator export, e.g. "validateEditFindParams". */
  validator: string;
  path: string;
  id: string;
}

/**
 * Names of the root schemas: topic params/results take the index's typeName + Params/Result; messages
 * take their schema title, else the index key in PascalCase. Sorted by name for stable output.
 */
export function rootSchemas(spec: Spec): RootSchema[] {
  const roots: RootSchema[] = [];
  const add = (name: string, path: string) => {
    const doc = spec.byPath.get(path)!;
    roots.push({ name, validator: `validate${name}`, path, id: doc.id });
  };
  for (const [key, path] of Object.entries(spec.index.messages)) {
    const title = spec.byPath.get(path)!.schema.title;
    add(typeof title === 'string' && /^[A-Za-z_]\w*$/.test(title) ? title : pascalCase(key), path);
  }
  for (const t of spec.index.topics) {
    add(`${t.typeName}Params`, t.params);
    add(`${t.typeName}Result`, t.result);
  }
  for (const e of spec.index.events ?? []) add(`${e.typeName}Data`, e.data);
  const seen = new Set<string>();
  for (const r of roots) {
    if (seen.has(r.name)) throw new Error(`${spec.folder}: two root schemas named ${r.name}`);
    seen.add(r.name);
  }
  return roots.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
