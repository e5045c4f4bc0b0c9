// The diff corpus: small classified edits of the latest spec version, each with the changes
// `idea-spec diff` must report (level and where), or none for an equivalent rewrite. Every case is a
// mutation of an in-memory copy of the spec run through diffVersions, the CLI's entry point.
// `at` must occur in "location › path" of the reported change (or of one of its use sites).
import { isObject, type Json, type JsonObject, type Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import type { Level } from '../../spec-tools/diff/types';

export interface CorpusCase {
  id: string;
  area:
    | 'request'
    | 'result'
    | 'defs'
    | 'combinators'
    | 'formats'
    | 'bounds'
    | 'patterns'
    | 'equivalence'
    | 'topics'
    | 'error codes'
    | 'since'
    | 'messages'
    | 'events';
  /** Applied to both versions (a field the case needs that the spec does not have). */
  setup?: (s: SpecVersion) => void;
  /** Applied to the new version only. */
  change: (s: SpecVersion) => void;
  expect: [Level, string][];
}

// ---- helpers over a spec copy -------------------------------------------------------------------

const P = (name: string) => `topics/${name}.params.schema.json`;
const R = (name: string) => `topics/${name}.result.schema.json`;

function schema(s: SpecVersion, file: string): JsonObject {
  const doc = s.byPath.get(file);
  if (!doc) throw new Error(`corpus: no schema ${file}`);
  return doc.schema;
}

function obj(x: Json | undefined, what: string): JsonObject {
  if (!isObject(x)) throw new Error(`corpus: ${what} is not an object`);
  return x;
}

const props = (node: JsonObject): JsonObject => obj(node.properties, 'properties');
const prop = (s: SpecVersion, file: string, name: string): JsonObject =>
  obj(props(schema(s, file))[name], `${file} ${name}`);
const defs = (s: SpecVersion): JsonObject => obj(schema(s, 'defs.schema.json').$defs, '$defs');
const def = (s: SpecVersion, name: string): JsonObject => obj(defs(s)[name], `$defs/${name}`);
const items = (s: SpecVersion, file: string, field: string): JsonObject =>
  obj(prop(s, file, field).items, `${file} ${field}[]`);
const required = (node: JsonObject): string[] =>
  Array.isArray(node.required) ? (node.required as string[]) : ((node.required = []) as string[]);
const ref = (name: string): JsonObject => ({ $ref: `../defs.schema.json#/$defs/${name}` });

/** Replaces every `$ref` to `$defs/<from>` in every schema of the copy. */
function renameRefs(s: SpecVersion, from: string, to: string): void {
  const walk = (x: Json): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (isObject(x)) {
      for (const [k, v] of Object.entries(x)) {
        if (k === '$ref' && typeof v === 'string' && v.endsWith(`/$defs/${from}`))
          x[k] = v.replace(`/$defs/${from}`, `/$defs/${to}`);
        else walk(v);
      }
    }
  };
  for (const doc of s.docs) walk(doc.schema);
}

const topic = (s: SpecVersion, name: string) => {
  const t = s.index.topics.find((x) => x.topic === `/app/vscode/${name}`);
  if (!t) throw new Error(`corpus: no topic ${name}`);
  return t;
};
const code = (s: SpecVersion, c: string) => {
  const e = s.index.errorCodes.find((x) => x.code === c);
  if (!e) throw new Error(`corpus: no error code ${c}`);
  return e;
};

// A field the spec lacks, added to both versions by `setup`: nav/symbols params `tag` and a field
// `score` of each nav/symbols result item.
const SYM_P = P('nav-symbols');
const SYM_R = R('nav-symbols');
const withTag = (tag: JsonObject) => (s: SpecVersion) => {
  props(schema(s, SYM_P)).tag = structuredClone(tag);
};
const setTag = (patch: JsonObject | ((t: JsonObject) => void)) => (s: SpecVersion) => {
  const t = prop(s, SYM_P, 'tag');
  if (typeof patch === 'function') patch(t);
  else {
    for (const k of Object.keys(t)) delete t[k];
    Object.assign(t, patch);
  }
};
const symItem = (s: SpecVersion) => items(s, SYM_R, 'symbols');
const withScore = (score: JsonObject) => (s: SpecVersion) => {
  props(symItem(s)).score = structuredClone(score);
};
const setScore = (patch: JsonObject | ((t: JsonObject) => void)) => (s: SpecVersion) => {
  const t = obj(props(symItem(s)).score, 'score');
  if (typeof patch === 'function') patch(t);
  else {
    for (const k of Object.keys(t)) delete t[k];
    Object.assign(t, patch);
  }
};

const TAG = 'nav/symbols params › tag';
const SCORE = 'nav/symbols result › symbols[].score';
const FIND = 'edit/find params';

// ---- the cases ----------------------------------------------------------------------------------

export const CASES: CorpusCase[] = [
  // request side: what a client sends must not be narrowed
  {
    id: 'new required param',
    area: 'request',
    change: (s) => {
      props(schema(s, P('edit-find'))).scope = { type: 'string' };
      required(schema(s, P('edit-find'))).push('scope');
    },
    expect: [['ERR', `${FIND} › scope`]],
  },
  {
    id: 'new optional param',
    area: 'request',
    change: (s) => {
      props(schema(s, P('edit-find'))).maxResults = { type: 'integer' };
    },
    expect: [['INFO', `${FIND} › maxResults`]],
  },
  {
    id: 'new optional param "Required when …"',
    area: 'request',
    change: (s) => {
      props(schema(s, P('edit-find'))).flags = {
        type: 'string',
        description: 'Regex flags. Required when isRegex is true.',
      };
    },
    expect: [['WARN', `${FIND} › flags`]],
  },
  {
    id: 'param removed',
    area: 'request',
    change: (s) => {
      delete props(schema(s, P('edit-find'))).isCaseSensitive;
    },
    expect: [['WARN', `${FIND} › isCaseSensitive`]],
  },
  {
    id: 'param made required',
    area: 'request',
    change: (s) => {
      required(schema(s, P('edit-find'))).push('isRegex');
    },
    expect: [['ERR', `${FIND} › isRegex`]],
  },
  {
    id: 'param made optional',
    area: 'request',
    change: (s) => {
      schema(s, P('edit-find')).required = [];
    },
    expect: [['INFO', `${FIND} › pattern`]],
  },
  {
    id: 'param default changed',
    area: 'request',
    change: (s) => {
      prop(s, P('edit-find'), 'isRegex').default = true;
    },
    expect: [['WARN', `${FIND} › isRegex`]],
  },
  {
    id: 'param made nullable',
    area: 'request',
    change: (s) => {
      prop(s, P('edit-find'), 'isRegex').type = ['boolean', 'null'];
    },
    expect: [['INFO', `${FIND} › isRegex`]],
  },
  {
    id: 'param type narrowed number → integer',
    area: 'request',
    setup: withTag({ type: 'number' }),
    change: setTag({ type: 'integer' }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'param type widened integer → number',
    area: 'request',
    setup: withTag({ type: 'integer' }),
    change: setTag({ type: 'number' }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'param enum value removed',
    area: 'request',
    change: (s) => {
      def(s, 'SeverityFilter').enum = ['error', 'warning', 'information', 'all'];
    },
    expect: [['ERR', '$defs/SeverityFilter']],
  },
  {
    id: 'param enum value added',
    area: 'request',
    change: (s) => {
      (def(s, 'SeverityFilter').enum as string[]).push('none');
    },
    expect: [['INFO', '$defs/SeverityFilter']],
  },
  {
    id: 'params closed to unknown fields',
    area: 'request',
    change: (s) => {
      schema(s, P('edit-find')).additionalProperties = false;
    },
    expect: [['ERR', FIND]],
  },

  // result side: what a server returns must not be widened
  {
    id: 'new result field',
    area: 'result',
    change: (s) => {
      props(schema(s, R('edit-find'))).truncated = { type: 'boolean' };
    },
    expect: [['INFO', 'edit/find result › truncated']],
  },
  {
    id: 'required result field removed',
    area: 'result',
    change: (s) => {
      delete props(schema(s, R('edit-replace'))).affectedFiles;
      schema(s, R('edit-replace')).required = ['replacedCount'];
    },
    expect: [['ERR', 'edit/replace result › affectedFiles']],
  },
  {
    id: 'optional result field removed',
    area: 'result',
    change: (s) => {
      delete props(items(s, R('localhistory-list'), 'entries')).source;
    },
    expect: [['WARN', 'localhistory/list result › entries[].source']],
  },
  {
    id: 'result field made optional',
    area: 'result',
    change: (s) => {
      schema(s, R('nav-references')).required = ['locations'];
    },
    expect: [['ERR', 'nav/references result › totalCount']],
  },
  {
    id: 'result field made required',
    area: 'result',
    change: (s) => {
      required(items(s, R('localhistory-list'), 'entries')).push('source');
    },
    expect: [['INFO', 'localhistory/list result › entries[].source']],
  },
  {
    id: 'result field made nullable',
    area: 'result',
    change: (s) => {
      props(items(s, R('edit-find'), 'matches')).lineText = { type: ['string', 'null'] };
    },
    expect: [['ERR', 'edit/find result › matches[].lineText']],
  },
  {
    id: 'result field no longer nullable',
    area: 'result',
    change: (s) => {
      props(items(s, R('diag-list'), 'diagnostics')).source = { type: 'string' };
    },
    expect: [['INFO', 'diag/list result › diagnostics[].source']],
  },
  {
    id: 'result type widened integer → number',
    area: 'result',
    setup: withScore({ type: 'integer' }),
    change: setScore({ type: 'number' }),
    expect: [['ERR', SCORE]],
  },
  {
    id: 'result type narrowed number → integer',
    area: 'result',
    setup: withScore({ type: 'number' }),
    change: setScore({ type: 'integer' }),
    expect: [['INFO', SCORE]],
  },
  {
    id: 'result enum value added',
    area: 'result',
    change: (s) => {
      (def(s, 'Severity').enum as string[]).push('fatal');
    },
    expect: [['ERR', '$defs/Severity']],
  },
  {
    id: 'result enum value removed',
    area: 'result',
    change: (s) => {
      def(s, 'Severity').enum = ['error', 'warning', 'information'];
    },
    expect: [['INFO', '$defs/Severity']],
  },
  {
    id: 'result item narrowed to a subtype (adds required fields)',
    area: 'result',
    change: (s) => {
      prop(s, R('nav-references'), 'locations').items = ref('DefinitionLocation');
    },
    expect: [['INFO', 'nav/references result › locations[].code']],
  },
  {
    id: 'result item widened to a supertype (drops required fields)',
    area: 'result',
    change: (s) => {
      prop(s, R('nav-definition'), 'locations').items = ref('Location');
    },
    expect: [['ERR', 'nav/definition result › locations[].code']],
  },
  {
    id: 'result union branch added (string → string | string[])',
    area: 'result',
    setup: withScore({ type: 'string' }),
    change: setScore({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
    expect: [['ERR', SCORE]],
  },
  {
    id: 'result default changed',
    area: 'result',
    setup: withScore({ type: 'integer', default: 0 }),
    change: setScore((t) => {
      t.default = 1;
    }),
    expect: [['INFO', SCORE]],
  },

  // $defs: one change, reported once under the $def, whatever the number of use sites
  {
    id: '$def pattern changed, 9 result uses',
    area: 'defs',
    change: (s) => {
      def(s, 'AbsolutePath').pattern = '^/';
    },
    expect: [['INFO', '$defs/AbsolutePath']],
  },
  {
    id: '$def used in params and results: bound tightened',
    area: 'defs',
    change: (s) => {
      def(s, 'LineNumber').minimum = 1;
    },
    expect: [['ERR', '$defs/LineNumber']],
  },
  {
    id: '$def used in results only: bound removed',
    area: 'defs',
    change: (s) => {
      delete def(s, 'Count').minimum;
    },
    expect: [['ERR', '$defs/Count']],
  },
  {
    id: '$def gains a required field (results)',
    area: 'defs',
    change: (s) => {
      props(def(s, 'Location')).uri = { type: 'string' };
      required(def(s, 'Location')).push('uri');
    },
    expect: [['INFO', '$defs/Location']],
  },
  {
    id: '$def loses a required field (results, also through allOf)',
    area: 'defs',
    change: (s) => {
      delete props(def(s, 'Location')).endCharacter;
      def(s, 'Location').required = ['filePath', 'line', 'character', 'endLine'];
    },
    expect: [['ERR', '$defs/Location']],
  },
  {
    id: 'a use site of a $def changes, not the $def',
    area: 'defs',
    change: (s) => {
      prop(s, P('edit-find'), 'include').default = '**';
    },
    expect: [['WARN', `${FIND} › include`]],
  },
  {
    id: 'new unused $def',
    area: 'defs',
    change: (s) => {
      defs(s).Unused = { type: 'string' };
    },
    expect: [],
  },
  {
    id: '$def renamed, references updated',
    area: 'defs',
    change: (s) => {
      defs(s).GlobPattern = def(s, 'Glob');
      delete defs(s).Glob;
      renameRefs(s, 'Glob', 'GlobPattern');
    },
    expect: [],
  },
  {
    id: '$ref replaced by the $def it points to',
    area: 'defs',
    change: (s) => {
      props(schema(s, P('edit-find'))).exclude = { type: 'string' };
    },
    expect: [],
  },
  {
    id: '$def nested in another $def changes',
    area: 'defs',
    change: (s) => {
      def(s, 'Character').maximum = 100000;
    },
    expect: [['ERR', '$defs/Character']],
  },

  // combinators
  {
    id: 'anyOf branch added to a param',
    area: 'combinators',
    change: (s) => {
      (prop(s, P('diag-list'), 'filePath').anyOf as Json[]).push({ type: 'null' });
    },
    expect: [['INFO', 'diag/list params › filePath']],
  },
  {
    id: 'anyOf branch removed from a param',
    area: 'combinators',
    change: (s) => {
      prop(s, P('diag-list'), 'filePath').anyOf = [ref('FilePath')];
    },
    expect: [['ERR', 'diag/list params › filePath']],
  },
  {
    id: 'allOf adds a requirement to params',
    area: 'combinators',
    change: (s) => {
      schema(s, P('edit-find')).allOf = [{ required: ['include'] }];
    },
    expect: [['ERR', `${FIND} › include`]],
  },
  {
    id: 'new if/then on params',
    area: 'combinators',
    change: (s) => {
      Object.assign(schema(s, P('edit-find')), {
        if: { properties: { isRegex: { const: true } }, required: ['isRegex'] },
        then: { required: ['isCaseSensitive'] },
      });
    },
    expect: [['ERR', FIND]],
  },
  {
    id: 'if/then removed from params',
    area: 'combinators',
    setup: (s) => {
      Object.assign(schema(s, P('edit-find')), {
        if: { properties: { isRegex: { const: true } }, required: ['isRegex'] },
        then: { required: ['isCaseSensitive'] },
      });
    },
    change: (s) => {
      delete schema(s, P('edit-find')).if;
      delete schema(s, P('edit-find')).then;
    },
    expect: [['INFO', FIND]],
  },
  {
    id: 'new not on a param',
    area: 'combinators',
    change: (s) => {
      prop(s, P('edit-find'), 'pattern').not = { const: '*' };
    },
    expect: [['ERR', `${FIND} › pattern`]],
  },
  // `not` inverts: excluding more values narrows, excluding fewer widens. A change through `not`
  // is compared, never taken as safe unproven (issue 32 item 6: one was INFO for params).
  {
    id: 'not on a param excludes one value more',
    area: 'combinators',
    setup: withTag({ type: 'string', not: { enum: ['a'] } }),
    change: setTag({ type: 'string', not: { enum: ['a', 'b'] } }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'not on a param excludes one value fewer',
    area: 'combinators',
    setup: withTag({ type: 'string', not: { enum: ['a', 'b'] } }),
    change: setTag({ type: 'string', not: { enum: ['a'] } }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'not in a result excludes fewer values',
    area: 'combinators',
    setup: withScore({ type: 'number', not: { maximum: 0 } }),
    change: setScore({ type: 'number', not: { maximum: -1 } }),
    expect: [['ERR', SCORE]],
  },
  {
    id: 'anyOf of required groups loses a branch',
    area: 'combinators',
    change: (s) => {
      (schema(s, P('localhistory-diff')).anyOf as Json[]).pop();
    },
    expect: [['ERR', 'localhistory/diff params']],
  },

  // equivalent rewrites: no change at all
  {
    id: 'type union ↔ anyOf of types',
    area: 'equivalence',
    setup: withTag({ type: ['string', 'null'] }),
    change: setTag({ anyOf: [{ type: 'string' }, { type: 'null' }] }),
    expect: [],
  },
  {
    id: 'type union ↔ oneOf of types',
    area: 'equivalence',
    setup: withTag({ type: ['string', 'null'] }),
    change: setTag({ oneOf: [{ type: 'string' }, { type: 'null' }] }),
    expect: [],
  },
  {
    id: 'type union with a string bound ↔ anyOf',
    area: 'equivalence',
    setup: withTag({ type: ['string', 'null'], minLength: 1 }),
    change: setTag({ anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] }),
    expect: [],
  },
  {
    id: 'nullable $ref ↔ type union (results)',
    area: 'equivalence',
    change: (s) => {
      props(items(s, R('history-list'), 'entries')).authorDate = {
        type: ['string', 'null'],
        pattern: def(s, 'IsoDateTime').pattern as string,
      };
    },
    expect: [],
  },
  {
    id: '$ref wrapped in allOf',
    area: 'equivalence',
    change: (s) => {
      props(schema(s, P('edit-find'))).include = { allOf: [ref('Glob')], default: '**/*' };
    },
    expect: [],
  },
  {
    id: '$ref wrapped in allOf (results)',
    area: 'equivalence',
    change: (s) => {
      prop(s, R('nav-references'), 'locations').items = { allOf: [ref('Location')] };
    },
    expect: [],
  },
  {
    id: 'enum ↔ anyOf of consts',
    area: 'equivalence',
    change: (s) => {
      const d = def(s, 'SeverityFilter');
      d.anyOf = (d.enum as string[]).map((v) => ({ const: v }));
      delete d.enum;
    },
    expect: [],
  },
  {
    id: 'enum ↔ oneOf of consts',
    area: 'equivalence',
    change: (s) => {
      const d = def(s, 'Severity');
      d.oneOf = (d.enum as string[]).map((v) => ({ const: v }));
      delete d.enum;
      delete d.type;
    },
    expect: [],
  },
  {
    id: 'const ↔ one-value enum',
    area: 'equivalence',
    change: (s) => {
      prop(s, 'messages/handshake-request.schema.json', 'type').enum = ['handshake'];
      delete prop(s, 'messages/handshake-request.schema.json', 'type').const;
    },
    expect: [],
  },
  {
    id: 'enum with its type ↔ enum alone',
    area: 'equivalence',
    change: (s) => {
      delete def(s, 'SymbolKind').type;
    },
    expect: [],
  },
  {
    id: 'integer minimum 1 ↔ exclusiveMinimum 0',
    area: 'equivalence',
    change: (s) => {
      const m = prop(s, P('history-list'), 'maxCount');
      delete m.minimum;
      m.exclusiveMinimum = 0;
    },
    expect: [],
  },
  {
    id: 'integer ↔ number with multipleOf 1 (params)',
    area: 'equivalence',
    setup: withTag({ type: 'integer', minimum: 0 }),
    change: setTag({ type: 'number', multipleOf: 1, minimum: 0 }),
    expect: [],
  },
  {
    id: 'number with multipleOf 1 and exclusiveMinimum 4 ↔ integer minimum 5 (results)',
    area: 'equivalence',
    setup: withScore({ type: 'number', multipleOf: 1, exclusiveMinimum: 4 }),
    change: setScore({ type: 'integer', minimum: 5 }),
    expect: [],
  },
  {
    id: 'anyOf of one schema ↔ that schema, not of not ↔ the schema',
    area: 'equivalence',
    setup: withTag({ type: 'string', minLength: 1 }),
    change: setTag({ anyOf: [{ not: { not: { type: 'string' } } }], minLength: 1 }),
    expect: [],
  },
  {
    id: 'integer maximum ↔ exclusiveMaximum',
    area: 'equivalence',
    setup: withTag({ type: 'integer', maximum: 10 }),
    change: setTag({ type: 'integer', exclusiveMaximum: 11 }),
    expect: [],
  },
  {
    id: 'integer maximum 9.5 ↔ 9',
    area: 'equivalence',
    setup: withTag({ type: 'integer', maximum: 9 }),
    change: setTag({ type: 'integer', maximum: 9.5 }),
    expect: [],
  },
  {
    id: 'trivial keywords added (required [], minLength 0, minItems 0, properties {}, additionalProperties true)',
    area: 'equivalence',
    change: (s) => {
      schema(s, R('edit-find')).additionalProperties = true;
      prop(s, P('nav-symbols'), 'query').minLength = 0;
      schema(s, P('diag-list')).required = [];
      prop(s, R('edit-find'), 'matches').minItems = 0;
      prop(s, 'messages/request.schema.json', 'params').properties = {};
    },
    expect: [],
  },
  {
    id: 'required and properties reordered',
    area: 'equivalence',
    change: (s) => {
      const r = schema(s, R('edit-find'));
      r.required = [...(r.required as string[])].reverse();
      r.properties = Object.fromEntries(Object.entries(props(r)).reverse());
    },
    expect: [],
  },
  {
    id: 'allOf of two object parts ↔ one object',
    area: 'equivalence',
    change: (s) => {
      const p = schema(s, P('history-list'));
      const { properties, required: req } = p;
      delete p.properties;
      delete p.required;
      p.allOf = [
        { properties: { filePath: obj(properties, 'p').filePath! }, required: req as Json },
        { properties: { maxCount: obj(properties, 'p').maxCount! } },
      ];
    },
    expect: [],
  },
  {
    id: 'annotations only (descriptions, titles, examples)',
    area: 'equivalence',
    change: (s) => {
      def(s, 'Location').description = 'changed';
      schema(s, R('edit-find')).title = 'X';
      schema(s, P('edit-find')).examples = [];
    },
    expect: [],
  },
  {
    id: 'pattern rewritten equivalently (\\d ↔ [0-9], group added)',
    area: 'equivalence',
    change: (s) => {
      def(s, 'TimestampLabel').pattern = '^(?:[0-9]{4})-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';
    },
    expect: [],
  },

  // patterns (request: relaxing is INFO, tightening ERR; result: the reverse; undecidable: WARN)
  {
    id: 'request pattern: anchor removed',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^[a-z]{3,8}';
    }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'request pattern: character class widened',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^[a-z0-9_]{3,8}$';
    }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'request pattern: quantifier widened',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^[a-z]{1,}$';
    }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'request pattern: alternative added',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^([a-z]{3,8}|\\*)$';
    }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'request pattern: tightened (quantifier)',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^[a-z]{4,8}$';
    }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'request pattern: replaced by a disjoint one',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^[0-9]+$';
    }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'request pattern: lookahead, not decidable',
    area: 'patterns',
    setup: withTag({ type: 'string', pattern: '^[a-z]{3,8}$' }),
    change: setTag((t) => {
      t.pattern = '^(?![0-9])[a-z]{3,8}$';
    }),
    expect: [['WARN', TAG]],
  },
  {
    id: 'request pattern added',
    area: 'patterns',
    setup: withTag({ type: 'string' }),
    change: setTag((t) => {
      t.pattern = '^[a-z]+$';
    }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'request pattern relaxed ($def GitRef, two params): tail and end anchor dropped',
    area: 'patterns',
    setup: (s) => {
      def(s, 'GitRef').pattern = '^[^-][^ ]*$';
    },
    change: (s) => {
      def(s, 'GitRef').pattern = '^[^-]';
    },
    expect: [['INFO', '$defs/GitRef']],
  },
  {
    id: 'result pattern relaxed ($def CommitHash: sha-256 too)',
    area: 'patterns',
    change: (s) => {
      def(s, 'CommitHash').pattern = '^([0-9a-f]{40}|[0-9a-f]{64})$';
    },
    expect: [['ERR', '$defs/CommitHash']],
  },
  {
    id: 'result pattern tightened',
    area: 'patterns',
    change: (s) => {
      def(s, 'CommitHash').pattern = '^[0-9a-e]{40}$';
    },
    expect: [['INFO', '$defs/CommitHash']],
  },
  {
    id: 'result pattern: lookahead, not decidable',
    area: 'patterns',
    change: (s) => {
      def(s, 'TimestampLabel').pattern =
        '^(?=2)\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$|^(?!2)\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
    },
    expect: [['WARN', '$defs/TimestampLabel']],
  },
  {
    id: 'result pattern inline relaxed (alternative added)',
    area: 'patterns',
    change: (s) => {
      prop(s, R('localhistory-diff'), 'toLabel').pattern =
        '^(current|working|\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2})$';
    },
    expect: [['ERR', 'localhistory/diff result › toLabel']],
  },

  // formats
  {
    id: 'request format added',
    area: 'formats',
    setup: withTag({ type: 'string' }),
    change: setTag((t) => {
      t.format = 'uri';
    }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'request format removed',
    area: 'formats',
    setup: withTag({ type: 'string', format: 'uri' }),
    change: setTag((t) => {
      delete t.format;
    }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'request format uri → uri-reference (wider)',
    area: 'formats',
    setup: withTag({ type: 'string', format: 'uri' }),
    change: setTag((t) => {
      t.format = 'uri-reference';
    }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'result format uri → uri-reference (wider)',
    area: 'formats',
    setup: withScore({ type: 'string', format: 'uri' }),
    change: setScore((t) => {
      t.format = 'uri-reference';
    }),
    expect: [['ERR', SCORE]],
  },
  {
    id: 'result format added',
    area: 'formats',
    setup: withScore({ type: 'string' }),
    change: setScore((t) => {
      t.format = 'date-time';
    }),
    expect: [['INFO', SCORE]],
  },
  {
    id: 'request format replaced by an unrelated one: unproven',
    area: 'formats',
    setup: withTag({ type: 'string', format: 'email' }),
    change: setTag((t) => {
      t.format = 'uri';
    }),
    expect: [['WARN', TAG]],
  },

  // bounds
  {
    id: 'request minimum raised',
    area: 'bounds',
    change: (s) => {
      prop(s, P('history-list'), 'maxCount').minimum = 5;
    },
    expect: [['ERR', 'history/list params › maxCount']],
  },
  {
    id: 'request maximum added',
    area: 'bounds',
    change: (s) => {
      prop(s, P('fs-findfiles'), 'maxResults').maximum = 1000;
    },
    expect: [['ERR', 'fs/findFiles params › maxResults']],
  },
  {
    id: 'request maximum removed',
    area: 'bounds',
    setup: (s) => {
      prop(s, P('fs-findfiles'), 'maxResults').maximum = 1000;
    },
    change: (s) => {
      delete prop(s, P('fs-findfiles'), 'maxResults').maximum;
    },
    expect: [['INFO', 'fs/findFiles params › maxResults']],
  },
  {
    id: 'request integer minimum 1 → exclusiveMinimum 1 (tighter)',
    area: 'bounds',
    change: (s) => {
      const m = prop(s, P('history-list'), 'maxCount');
      delete m.minimum;
      m.exclusiveMinimum = 1;
    },
    expect: [['ERR', 'history/list params › maxCount']],
  },
  {
    id: 'request number minimum 0 → exclusiveMinimum 0 (tighter)',
    area: 'bounds',
    setup: withTag({ type: 'number', minimum: 0 }),
    change: setTag({ type: 'number', exclusiveMinimum: 0 }),
    expect: [['ERR', TAG]],
  },
  {
    id: 'request number exclusiveMinimum 0 → minimum 0 (looser)',
    area: 'bounds',
    setup: withTag({ type: 'number', exclusiveMinimum: 0 }),
    change: setTag({ type: 'number', minimum: 0 }),
    expect: [['INFO', TAG]],
  },
  {
    id: 'request minItems raised',
    area: 'bounds',
    change: (s) => {
      obj((prop(s, P('diag-list'), 'filePath').anyOf as Json[])[1], 'branch').minItems = 2;
    },
    expect: [['ERR', 'diag/list params › filePath']],
  },
  {
    id: 'request multipleOf added',
    area: 'bounds',
    change: (s) => {
      prop(s, P('fs-findfiles'), 'maxResults').multipleOf = 10;
    },
    expect: [['ERR', 'fs/findFiles params › maxResults']],
  },
  {
    id: 'result maxItems added',
    area: 'bounds',
    change: (s) => {
      prop(s, R('edit-find'), 'matches').maxItems = 10000;
    },
    expect: [['INFO', 'edit/find result › matches']],
  },
  {
    id: 'result minLength removed',
    area: 'bounds',
    change: (s) => {
      delete prop(s, R('history-diff'), 'fromRef').minLength;
    },
    expect: [['ERR', 'history/diff result › fromRef']],
  },

  // topics
  {
    id: 'topic added',
    area: 'topics',
    change: (s) => {
      s.index.topics.push({
        ...topic(s, 'nav/symbols'),
        topic: '/app/vscode/nav/outline',
        method: 'navOutline',
        typeName: 'NavOutline',
        since: s.version,
      });
    },
    expect: [['INFO', 'topic /app/vscode/nav/outline']],
  },
  {
    id: 'topic removed',
    area: 'topics',
    change: (s) => {
      s.index.topics = s.index.topics.filter((t) => t.topic !== '/app/vscode/nav/symbols');
    },
    expect: [['ERR', 'topic /app/vscode/nav/symbols']],
  },
  {
    id: 'topic method renamed',
    area: 'topics',
    change: (s) => {
      topic(s, 'nav/symbols').method = 'navSymbolSearch';
    },
    expect: [['WARN', 'topic /app/vscode/nav/symbols › method']],
  },
  {
    id: 'topic may fail with another error code',
    area: 'topics',
    change: (s) => {
      topic(s, 'nav/symbols').errors.push('UNKNOWN_TOPIC');
    },
    expect: [['WARN', 'topic /app/vscode/nav/symbols › UNKNOWN_TOPIC']],
  },
  {
    id: 'topic no longer fails with an error code',
    area: 'topics',
    change: (s) => {
      topic(s, 'edit/find').errors = ['INVALID_REQUEST'];
    },
    expect: [['INFO', 'topic /app/vscode/edit/find › HANDLER_ERROR']],
  },
  {
    id: 'topic description changed',
    area: 'topics',
    change: (s) => {
      topic(s, 'edit/find').description = 'Find.';
    },
    expect: [],
  },

  // error codes
  {
    id: 'error code added',
    area: 'error codes',
    change: (s) => {
      s.index.errorCodes.push({ code: 'TIMEOUT', since: s.version, description: 'Too slow.' });
    },
    expect: [['WARN', 'error codes › TIMEOUT']],
  },
  {
    id: 'error code removed',
    area: 'error codes',
    change: (s) => {
      s.index.errorCodes = s.index.errorCodes.filter((e) => e.code !== 'UNAUTHORIZED');
    },
    expect: [['INFO', 'error codes › UNAUTHORIZED']],
  },
  {
    id: 'error code description changed',
    area: 'error codes',
    change: (s) => {
      code(s, 'PARSE_ERROR').description = 'Not JSON.';
    },
    expect: [],
  },

  // since
  {
    id: "topic's since changed",
    area: 'since',
    change: (s) => {
      topic(s, 'nav/symbols').since = '0.1.1';
    },
    expect: [['WARN', 'topic /app/vscode/nav/symbols › since']],
  },
  {
    id: "error code's since changed",
    area: 'since',
    change: (s) => {
      code(s, 'UNAUTHORIZED').since = '0.1.2';
    },
    expect: [['WARN', 'error codes › UNAUTHORIZED']],
  },

  // messages and transport
  {
    id: 'handshake request: new required field',
    area: 'messages',
    change: (s) => {
      const h = schema(s, 'messages/handshake-request.schema.json');
      props(h).client = { type: 'string' };
      required(h).push('client');
    },
    expect: [['ERR', 'handshake request › client']],
  },
  {
    id: 'handshake response: new field',
    area: 'messages',
    change: (s) => {
      props(schema(s, 'messages/handshake-success.schema.json')).serverName = { type: 'string' };
    },
    expect: [['INFO', 'handshake response › serverName']],
  },
  {
    id: 'request envelope: requestId pattern added',
    area: 'messages',
    change: (s) => {
      prop(s, 'messages/request.schema.json', 'requestId').pattern = '^[0-9a-f-]{36}$';
    },
    expect: [['ERR', 'request envelope › requestId']],
  },
  {
    id: 'transport: default port changed',
    area: 'messages',
    change: (s) => {
      s.index.transport.defaultPort = 7300;
    },
    expect: [['ERR', 'transport › defaultPort']],
  },
  {
    id: 'transport: more port attempts',
    area: 'messages',
    change: (s) => {
      s.index.transport.portAttempts = 20;
    },
    expect: [['WARN', 'transport › portAttempts']],
  },

  // events (0.1.7 on): server-sent data judged like results; frames only subscribers get are opt-in
  {
    id: 'event added',
    area: 'events',
    change: (s) => {
      s.index.events!.push({ ...s.index.events![0]!, event: '/app/vscode/git/changed', name: 'gitChanged' });
    },
    expect: [['INFO', 'event /app/vscode/git/changed']],
  },
  {
    id: 'event removed',
    area: 'events',
    change: (s) => {
      s.index.events = s.index.events!.filter((e) => e.event !== '/app/vscode/files/changed');
    },
    expect: [['ERR', 'event /app/vscode/files/changed']],
  },
  {
    id: 'event data: a new enum value (widening what the server sends)',
    area: 'events',
    change: (s) => {
      const items = (props(schema(s, 'events/files-changed.data.schema.json')).changes as JsonObject)
        .items as JsonObject;
      ((items.properties as JsonObject).change as { enum: string[] }).enum.push('renamed');
    },
    expect: [['ERR', 'event /app/vscode/files/changed › changes[].change']],
  },
  {
    id: 'event data: a new optional field',
    area: 'events',
    change: (s) => {
      props(schema(s, 'events/editor-changed.data.schema.json')).focused = { type: 'boolean' };
    },
    expect: [['INFO', 'event /app/vscode/editor/changed']],
  },
  {
    id: 'event frame added: sent only to subscribers',
    area: 'events',
    setup: (s) => {
      delete s.index.messages.event;
    },
    change: (s) => {
      s.index.messages.event = 'messages/event.schema.json';
    },
    expect: [['INFO', 'message event']],
  },
  {
    id: 'error code answering a new client frame only',
    area: 'events',
    setup: (s) => {
      delete s.index.messages.cancel;
    },
    change: (s) => {
      s.index.messages.cancel = 'messages/cancel.schema.json';
      s.index.errorCodes.push({ code: 'STOPPED', since: s.version, answers: 'cancel', description: 'Stopped.' });
    },
    expect: [
      ['INFO', 'message cancel'],
      ['INFO', 'error codes › STOPPED'],
    ],
  },
  {
    id: 'error code answering a frame older clients send already',
    area: 'events',
    change: (s) => {
      s.index.errorCodes.push({ code: 'STOPPED', since: s.version, answers: 'cancel', description: 'Stopped.' });
    },
    expect: [['WARN', 'error codes › STOPPED']],
  },
];
