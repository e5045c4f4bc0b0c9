// MCP tools/list and tools/call over the IDEA connection. The definitions are generated from the spec
// (generated/<v>/mcp-tools.ts): the version the connected server announced, filtered to the topics it
// advertises. The result goes back as structuredContent unchanged, with a text rendering for people;
// IDEA protocol errors become tool errors that carry the code.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolDefinition } from '../../generated/current';
import {
  CURRENT_VERSION,
  type IdeaClient,
  IdeaClosedError,
  IdeaProtocolError,
  IdeaTimeoutError,
} from '../../generated/current';
import { loadMcpTools } from '../../generated/versions';
import { CHANGED_FILES_PARAM, ChangedFilesError, withChangedFiles } from '../../runtime/changed-files';
import { strictInputSchema, unknownArguments } from './arguments';
import { type IdeaConnection, NoWindowError } from './connection';
import { describedInput, toolDescription } from './descriptions';
import { resultText } from './text';
import { ALL_TOOLS, type ToolFilter } from './tool-filter';

// Each version's table is loaded once: a dynamic import per call costs more than the whole round trip.
const tables = new Map<string, Promise<readonly McpToolDefinition[] | undefined>>();
function toolTable(version: string): Promise<readonly McpToolDefinition[] | undefined> {
  let t = tables.get(version);
  if (!t) tables.set(version, (t = loadMcpTools(version) ?? Promise.resolve(undefined)));
  return t;
}

/** Every tool of the version idea-mcp serves (spec/served.json): what tool names are checked against. */
export async function knownTools(): Promise<readonly McpToolDefinition[]> {
  return (await toolTable(CURRENT_VERSION))!;
}

/**
 * The tools of the client's announced version (the served one, spec/served.json, when this tree has no
 * code for the one it announced), advertised ones only, and only those the filter lets the agent have.
 */
export async function toolsFor(
  client: IdeaClient | undefined,
  filter: ToolFilter = ALL_TOOLS,
): Promise<readonly McpToolDefinition[]> {
  const all = (client && (await toolTable(client.handshake.version))) || (await knownTools());
  return (client ? all.filter((t) => client.handshake.capabilities.includes(t.topic)) : all).filter(filter.allows);
}

// Computed once per definition: every call checks its arguments against it.
const listedSchemas = new WeakMap<McpToolDefinition, Tool['inputSchema']>();

/**
 * The generated input schema, plus the client's `changed` argument on the topic that takes it (the
 * agent's "what did my edit break" call; runtime/changed-files.ts) unless the spec has one; its
 * `namePath` described for a model (descriptions.ts); closed to other arguments (arguments.ts).
 */
function inputSchemaOf(d: McpToolDefinition): Tool['inputSchema'] {
  let listed = listedSchemas.get(d);
  if (listed) return listed;
  const schema = d.inputSchema as Tool['inputSchema'];
  const c = CHANGED_FILES_PARAM;
  const withChanged =
    d.topic !== c.topic || schema.properties?.[c.name] !== undefined
      ? schema
      : { ...schema, properties: { ...schema.properties, [c.name]: { type: 'boolean', description: c.description } } };
  listedSchemas.set(d, (listed = strictInputSchema(describedInput(d.name, withChanged))));
  return listed;
}

function asMcpTool(d: McpToolDefinition): Tool {
  return {
    name: d.name,
    title: d.title,
    description: toolDescription(d),
    inputSchema: inputSchemaOf(d),
    outputSchema: d.outputSchema as Tool['outputSchema'],
    annotations: { ...d.annotations },
  };
}

/**
 * The tools to list: the connected server's. Without a window (none open yet, or it went away) the
 * served version's full set is listed, so a client that lists once at start-up still knows them; a
 * call then says no window is open.
 */
export async function listTools(conn: IdeaConnection, filter: ToolFilter = ALL_TOOLS): Promise<Tool[]> {
  let client: IdeaClient | undefined;
  try {
    client = await conn.get();
  } catch {
    client = undefined;
  }
  return (await toolsFor(client, filter)).map(asMcpTool);
}

export class UnknownToolError extends Error {
  override readonly name = 'UnknownToolError';
}

function toolError(text: string, code?: string, meta: Record<string, unknown> = {}): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text }],
    ...(code ? { _meta: { 'idea-kit/errorCode': code, ...meta } } : {}),
  };
}

/**
 * An IDEA error answer as a tool error: its code and message; since 0.1.8, for a name path naming no
 * symbol or several, the candidates the message does not name already, one a line, to pick from (also
 * in `_meta["idea-kit/candidates"]`).
 */
function protocolError(e: IdeaProtocolError): CallToolResult {
  const candidates = e.candidates ?? [];
  const unnamed = candidates.filter((c) => !e.message.includes(c.namePath));
  const list = unnamed.map((c) => `${c.namePath} (${c.kind}, line ${c.line + 1})`);
  const text = `${e.code}: ${e.message}${list.length > 0 ? `\nCandidates (pass one as namePath): ${list.join('; ')}` : ''}`;
  return toolError(text, e.code, candidates.length > 0 ? { 'idea-kit/candidates': candidates } : {});
}

/**
 * `signal`: the MCP request's (aborted by `notifications/cancelled`); it cancels the IDEA request. A tool
 * the filter hides is refused before anything is sent, as an unknown one is.
 */
export async function callTool(
  conn: IdeaConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  signal?: AbortSignal,
  filter: ToolFilter = ALL_TOOLS,
): Promise<CallToolResult> {
  const known = await knownTools();
  const def = known.find((t) => t.name === name);
  if (def && !filter.allows(def)) throw new UnknownToolError(`tool ${name} is not available here: ${filter.why(name)}`);
  let client: IdeaClient;
  try {
    client = await conn.get();
  } catch (e) {
    if (!known.some((t) => t.name === name)) throw new UnknownToolError(`unknown tool: ${name}`);
    // A refused handshake (UNAUTHORIZED) is a protocol error like any other: its code, as text and in _meta.
    if (e instanceof IdeaProtocolError) return toolError(`${e.code}: ${e.message}`, e.code);
    return toolError(e instanceof Error ? e.message : String(e));
  }
  const tool = (await toolsFor(client, filter)).find((t) => t.name === name);
  if (!tool) {
    if (known.some((t) => t.name === name)) {
      return toolError(
        `UNKNOWN_TOPIC: the VS Code window's IDEA server (protocol ${client.handshake.version}) does not offer ${name}`,
        'UNKNOWN_TOPIC',
      );
    }
    throw new UnknownToolError(`unknown tool: ${name}`);
  }
  let params: Record<string, unknown> = args ?? {};
  const unknown = unknownArguments(tool.name, inputSchemaOf(tool), params);
  if (unknown) return toolError(`INVALID_REQUEST: ${unknown}`, 'INVALID_REQUEST');
  let changedFiles = false;
  if (tool.topic === CHANGED_FILES_PARAM.topic && params[CHANGED_FILES_PARAM.name] !== undefined) {
    let filled: Awaited<ReturnType<typeof withChangedFiles>>;
    try {
      filled = await withChangedFiles(params, conn.cwd);
    } catch (e) {
      if (e instanceof ChangedFilesError) return toolError(`${CHANGED_FILES_PARAM.name}: ${e.message}`);
      throw e;
    }
    if (!filled) {
      const result = CHANGED_FILES_PARAM.emptyResult;
      return {
        content: [{ type: 'text', text: `git reports no changed files in ${conn.cwd}: no diagnostics to ask for.` }],
        structuredContent: { ...result },
      };
    }
    params = filled.params;
    changedFiles = filled.changed !== undefined;
  }
  // The IDEA server checks the params against the same schema (INVALID_REQUEST names the problem).
  const send = (c: IdeaClient) =>
    c.request(tool.topic as never, params as never, signal ? { signal } : {}) as Promise<Record<string, unknown>>;
  try {
    let result: Record<string, unknown>;
    try {
      result = await send(client);
    } catch (e) {
      // Dropped while in flight (a window reloading): once more on the reconnected link, which the
      // request waits for within its timeout, but only when running it twice does no harm.
      if (!(e instanceof IdeaClosedError) || !tool.annotations.idempotentHint) throw e;
      result = await send(await conn.get());
    }
    const text = resultText(tool.topic, result, { params, changedFiles });
    return { content: [{ type: 'text', text }], structuredContent: result };
  } catch (e) {
    if (e instanceof IdeaProtocolError) return protocolError(e);
    if (e instanceof IdeaTimeoutError) return toolError(`timed out: ${e.message}`);
    if (e instanceof IdeaClosedError) {
      return toolError(
        tool.annotations.idempotentHint
          ? `the connection to VS Code was lost (${e.message}); if the window is reloading, call again in a few seconds`
          : `the connection to VS Code was lost while ${tool.name} was in flight (${e.message}): it may or may not have been applied; check before calling again`,
      );
    }
    if (e instanceof NoWindowError) return toolError(e.message);
    if (signal?.aborted) return toolError('cancelled', 'CANCELLED'); // the SDK sends no answer to a cancelled call
    return toolError(e instanceof Error ? e.message : String(e));
  }
}
