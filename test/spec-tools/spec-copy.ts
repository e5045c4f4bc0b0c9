// A deep copy of a loaded spec version, to be edited in memory and diffed (the corpus, grouping tests).
import type { Spec } from '@idea-kit/spec-lib/spec';

export function copySpec(s: Spec, version = s.version): Spec {
  const docs = s.docs.map((d) => ({ ...d, schema: structuredClone(d.schema) }));
  return {
    ...s,
    version,
    index: structuredClone(s.index),
    docs,
    byPath: new Map(docs.map((d) => [d.path, d])),
    byId: new Map(docs.map((d) => [d.id, d])),
  };
}
