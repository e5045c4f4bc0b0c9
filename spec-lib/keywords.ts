// Which keys of a JSON Schema (draft 2020-12) hold subschemas: the one table every walker of the spec
// uses (the lint, @since history, the diff's inlining, the CLI's flags, the MCP and type bundles,
// amend's annotation check). Every other key holds data (enum values, defaults, bounds, `required`
// names, …) and is never walked: a property named "description" or "$ref" inside `properties` is a
// name, and an object inside `default` is a value.
//
// `definitions` (the pre-2019 spelling of `$defs`, still read by ajv) is listed so a schema using it is
// walked like `$defs`; walkers that drop definitions drop both.

/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Keywords whose value is a list of schemas. */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas (the keys are names, not keywords). */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

/** How `key` holds subschemas, or undefined for data. */
export function subschemaKind(key: string): 'schema' | 'list' | 'map' | undefined {
  return SCHEMA_KEYWORDS.has(key)
    ? 'schema'
    : SCHEMA_LIST_KEYWORDS.has(key)
      ? 'list'
      : SCHEMA_MAP_KEYWORDS.has(key)
        ? 'map'
        : undefined;
}
