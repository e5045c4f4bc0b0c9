// generated/<v>/mcp-tools.ts: one MCP tool definition per topic of the version (the MCP server in mcp/
// lists the ones the connected server advertises). Schemas are the spec's own, self-contained: every
// schema a topic's params or result refers to is copied under the root's `$defs` (named as in the
// types) and each `$ref` points there, so any JSON Schema 2020-12 validator reads them without our
// documents. Plain string building: the data is JSON.

import { type SchemaVisitor, visitSchema } from '@idea-kit/spec-lib/inline';
import type { RefResolver, Target } from '@idea-kit/spec-lib/refs';
import type { Json, JsonSchema, TopicEntry } from '@idea-kit/spec-lib/spec';
import type { TopicAnnotation, TopicAnnotations } from './annotations';

export const MCP_TOOLS_FILE = 'mcp-tools.ts';
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** Nested `$id`/`$schema` would re-base the references; `$defs` are rebuilt from what is used. */
const BUNDLE_DROPS: ReadonlySet<string> = new Set(['$id', '$schema', '$defs']);
/** MCP's rule for tool names (specification 2025-11-25, "Tool names"). */
export const MCP_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** "/app/vscode/fs/findFiles" → "fs_findFiles". */
function toolName(topic: string): string {
  const name = topic.replace(/^\/app\/vscode\//, '').replace(/\//g, '_');
  if (!MCP_TOOL_NAME.test(name)) throw new Error(`${topic}: tool name "${name}" is not a valid MCP tool name`);
  return name;
}

/**
 * The schema of `root` with every reachable `$ref` target under `$defs` (keyed by its bundle name)
 * and `$ref`s rewritten to "#/$defs/<name>" ("#" for the root itself). Everything else is kept as
 * the spec wrote it, nested `$id`/`$schema` aside (they would re-base the references).
 */
export function bundleSchema(refs: RefResolver, path: string): JsonSchema {
  const root = refs.roots.find((r) => r.path === path);
  if (!root) throw new Error(`${refs.spec.folder}: no root schema ${path}`);
  const defs = new Map<string, JsonSchema>();
  const pending: Target[] = [];
  const visitor: SchemaVisitor = {
    drop: BUNDLE_DROPS,
    object(own, _node, ref) {
      if (!ref) return own;
      const t = refs.named(ref.target);
      if (t.baseId === root.id && t.name === root.name) own.$ref = '#';
      else {
        if (!defs.has(t.name)) {
          defs.set(t.name, {}); // reserved before the walk: cycles end here
          pending.push(t);
        }
        own.$ref = `#/$defs/${t.name}`;
      }
      return own;
    },
  };
  const body = visitSchema(refs.spec, path, refs.spec.byId.get(root.id)!.schema, visitor) as JsonSchema;
  for (let t = pending.shift(); t; t = pending.shift()) {
    defs.set(
      t.name,
      visitSchema(refs.spec, refs.spec.byId.get(t.baseId)!.path, t.schema as Json, visitor) as JsonSchema,
    );
  }
  if (body.type !== 'object') throw new Error(`${refs.spec.folder}/${path}: MCP needs a schema of type "object" here`);
  const sortedDefs = Object.fromEntries([...defs].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { $schema: DRAFT_2020_12, ...body, ...(defs.size > 0 ? { $defs: sortedDefs } : {}) };
}

interface McpToolModel {
  name: string;
  topic: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

function mcpTool(refs: RefResolver, t: TopicEntry, a: TopicAnnotation): McpToolModel {
  return {
    name: toolName(t.topic),
    topic: t.topic,
    title: a.title,
    description: t.description,
    inputSchema: bundleSchema(refs, t.params),
    outputSchema: bundleSchema(refs, t.result),
    annotations: {
      title: a.title,
      readOnlyHint: a.readOnly,
      destructiveHint: a.destructive,
      idempotentHint: a.idempotent,
      // Every topic acts on the open workspace only.
      openWorldHint: false,
    },
  };
}

export function generateMcpTools(refs: RefResolver, annotations: TopicAnnotations, tsHeader: string): string {
  const tools = refs.spec.index.topics
    .filter((t) => t.servedBy !== 'session')
    .map((t) => {
      const a = annotations.byTopic.get(t.topic);
      if (!a)
        throw new Error(`spec/topic-annotations.json has no entry for ${t.topic} (listed by spec/${refs.spec.folder})`);
      return mcpTool(refs, t, a);
    });
  return [
    tsHeader,
    '// One MCP tool per topic: name, title, description from the topic index; inputSchema / outputSchema',
    '// the params / result schemas made self-contained (draft 2020-12, references under $defs);',
    '// annotations from spec/topic-annotations.json.',
    '',
    'export interface McpToolDefinition {',
    '  /** MCP tool name, ^[a-zA-Z0-9_-]{1,64}$ (the topic without /app/vscode/, "/" → "_"). */',
    '  readonly name: string;',
    '  readonly topic: string;',
    '  readonly title: string;',
    '  readonly description: string;',
    '  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown };',
    '  readonly outputSchema: { readonly type: "object"; readonly [key: string]: unknown };',
    '  readonly annotations: {',
    '    readonly title: string;',
    '    readonly readOnlyHint: boolean;',
    '    readonly destructiveHint: boolean;',
    '    readonly idempotentHint: boolean;',
    '    readonly openWorldHint: boolean;',
    '  };',
    '}',
    '',
    `export const MCP_TOOLS: readonly McpToolDefinition[] = ${JSON.stringify(tools, null, 2)};`,
    '',
  ].join('\n');
}
