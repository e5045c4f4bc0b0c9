// Turns a schema into a self-contained value for comparison: `$ref`s replaced by their targets (each
// remembered as a use of its target, see normalise.ts `defUse`), annotations that carry no constraint
// (title, description, $id, …) dropped, and every subschema in normal form (normalise.ts).
import { inlineRefs, visitSchema } from '@idea-kit/spec-lib/inline';
import { isObject, type Json, type Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import { ANNOTATIONS, REQUIRED_WHEN } from './keywords';
import { keepingEvaluation, normaliseSchema, refNode } from './normalise';

const REQUIRED_WHEN_RE = /\b(?:required|mandatory) (?:when|if|unless)\b[^.]*/i;

export function inlineSchema(spec: SpecVersion, file: string, node: Json): Json {
  const resolved = inlineRefs(spec, file, node);
  // `unevaluated*` sees what other keywords evaluated: the normal form must then keep that too. A
  // `$dynamicRef` may resolve into `$defs`: they are kept for the diff to see them change.
  const drop = mentions(resolved, '$dynamicRef') ? KEPT_FOR_DYNAMIC_REFS : ANNOTATIONS;
  return keepingEvaluation(mentions(resolved, 'unevaluatedProperties', 'unevaluatedItems'), () =>
    normalForm(spec, file, node, drop),
  );
}

const KEPT_FOR_DYNAMIC_REFS: ReadonlySet<string> = new Set(
  [...ANNOTATIONS].filter((k) => k !== '$defs' && k !== 'definitions'),
);

function mentions(x: Json, ...keys: string[]): boolean {
  if (Array.isArray(x)) return x.some((v) => mentions(v, ...keys));
  if (!isObject(x)) return false;
  return keys.some((k) => k in x) || Object.values(x).some((v) => mentions(v, ...keys));
}

function normalForm(spec: SpecVersion, file: string, node: Json, drop: ReadonlySet<string>): Json {
  return visitSchema(spec, file, node, {
    drop,
    bool: (b) => (b ? normaliseSchema({}) : false), // false kept: `additionalProperties: false` reads better than `{ not: {} }`
    object(own, original, ref) {
      const { $ref: _ref, ...rest } = own;
      const condition = typeof original.description === 'string' ? REQUIRED_WHEN_RE.exec(original.description) : null;
      const site = normaliseSchema(condition ? { [REQUIRED_WHEN]: condition[0], ...rest } : rest);
      if (!ref) return site;
      const body = ref.inline();
      return isObject(body) ? refNode(defName(ref.target.path, ref.target.pointer), body, site) : body;
    },
  });
}

/** How a `$ref` target is named in the report: "$defs/FilePath" for the shared definitions,
 *  otherwise the file and pointer ("messages/error-code.schema.json"). */
function defName(path: string, pointer: string): string {
  if (path === 'defs.schema.json' && pointer) return pointer.replace(/^\//, '');
  return pointer ? `${path}#${pointer}` : path;
}
