// Per-field `since`, derived from the version folders instead of kept by hand: a field is as old as
// the first spec/<v>/ whose schema document has a property at the same JSON pointer. It is worth
// saying only when the field is younger than the object holding it (a field as old as its schema
// is covered by the topic's or message's own `since`).
import { schemaNodes } from '@idea-kit/spec-lib/schema-walk';
import { type JsonSchema, loadSpec, type Spec, specVersions } from '@idea-kit/spec-lib/spec';
import { compareVersions } from '@idea-kit/spec-lib/version';

/** Where a schema node sits: document path and JSON pointer. */
export interface NodeLocation {
  path: string;
  pointer: string;
}

export class FieldHistory {
  /** Schema node (by identity, of the version being generated) → its location. */
  private readonly located = new Map<JsonSchema, NodeLocation>();
  /** "path#pointer" → first version ("0.1.3") that has a schema node there. */
  private readonly firstSeen = new Map<string, string>();
  /** The earlier folders read, [folder, spec hash], oldest first (the manifest records them). */
  readonly earlier: [folder: string, hash: string][];

  constructor(specRoot: string, spec: Spec) {
    const earlier = specVersions(specRoot)
      .filter((v) => compareVersions(v, spec.version) < 0)
      .map((v) => loadSpec(specRoot, v));
    this.earlier = earlier.map((s) => [s.folder, s.hash]);
    for (const s of [...earlier, spec]) {
      for (const doc of s.docs) {
        for (const [node, pointer] of schemaNodes(doc.schema)) {
          const key = `${doc.path}#${pointer}`;
          if (!this.firstSeen.has(key)) this.firstSeen.set(key, s.index.version);
          if (s === spec) this.located.set(node, { path: doc.path, pointer });
        }
      }
    }
  }

  location(node: JsonSchema): NodeLocation | undefined {
    return this.located.get(node);
  }

  /** The version a property node first appeared in, when later than the object holding it. */
  sinceOf(property: JsonSchema): string | undefined {
    const at = this.located.get(property);
    const m = at && /^(.*)\/properties\/[^/]+$/.exec(at.pointer);
    if (!at || !m) return undefined;
    const field = this.firstSeen.get(`${at.path}#${at.pointer}`);
    const holder = this.firstSeen.get(`${at.path}#${m[1]}`);
    return field && holder && field !== holder ? field : undefined;
  }
}

/** A property's annotations as documentation lines: its description, `@default`, `@since`. */
export function fieldDocLines(description: string, def: unknown, since: string | undefined): string[] {
  const lines = description === '' ? [] : [description];
  // "*/" would end the JSDoc comment; "*\/" is the same JSON value ("\/" is a JSON escape of "/").
  if (def !== undefined) lines.push(`@default ${JSON.stringify(def).replace(/\*\//g, '*\\/')}`);
  if (since !== undefined) lines.push(`@since ${since}`);
  return lines;
}
