// One MCP server (SDK `Server`: tools, and resources with subscriptions) per MCP session; all of them
// share the IDEA connection and its resource hub (resources.ts). An MCP client's
// `notifications/cancelled` aborts the tool call's signal (the SDK), which the IDEA client turns into
// a cancel frame (0.1.7 servers): the window stops the work.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { version as PACKAGE_VERSION } from '../package.json';
import type { IdeaConnection } from './connection';
import { hubOf, ResourceError, readResource, resourcesFor, type Subscriber } from './resources';
import { ALL_TOOLS, type ToolFilter } from './tool-filter';
import { callTool, listTools, toolsFor, UnknownToolError } from './tools';

/** The version is the package's, as `idea-mcp --version` prints it. */
const SERVER_INFO = { name: 'idea-mcp', title: 'IDEA (VS Code) tools', version: PACKAGE_VERSION } as const;

const INSTRUCTIONS =
  'Tools that act on the running VS Code window whose workspace contains this folder, through the IDEA protocol: ' +
  'find/replace, definition, references, symbols, diagnostics, git and local history, edits, code actions, ' +
  'formatting and file moves. ' +
  'File paths are workspace-relative or absolute inside an open workspace folder. ' +
  'Where a tool takes namePath, name code by symbol rather than by position: nav_findSymbol finds a symbol by ' +
  'name path ("Class/method") and shows its source; every symbol it lists has its own namePath, which the ' +
  'position tools take with its filePath in place of line and character. ' +
  'Edit by name path too: edit_apply replaces a symbol or inserts after it, all or nothing; every write can ' +
  'run with dryRun: true first to see its diff, and its answer gives a transactionId that edit_undo takes back. ' +
  'Text results print positions 1-based (path:line:col, as grep and editors do); the line and character ' +
  'arguments, and structuredContent, are 0-based.';

/** `filter`: the tools this server hands its agent (tool-filter.ts); all by default. */
export function createMcpServer(conn: IdeaConnection, filter: ToolFilter = ALL_TOOLS): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    instructions: INSTRUCTIONS,
  });
  let listed: string | undefined; // the names last returned by tools/list
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await listTools(conn, filter);
    listed = tools.map((t) => t.name).join(',');
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    try {
      return await callTool(conn, req.params.name, req.params.arguments, extra.signal, filter);
    } catch (e) {
      if (e instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, e.message);
      throw e;
    }
  });
  const hub = hubOf(conn);
  const updated: Subscriber = (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined);
  const resourceCall = async <R>(f: () => Promise<R>): Promise<R> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof ResourceError) throw new McpError(ErrorCode.InvalidParams, e.message);
      throw new McpError(ErrorCode.InternalError, e instanceof Error ? e.message : String(e));
    }
  };
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const client = await conn.get().catch(() => undefined);
    return { resources: resourcesFor(client) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (req) => resourceCall(() => readResource(conn, req.params.uri)));
  server.setRequestHandler(SubscribeRequestSchema, (req) =>
    resourceCall(async () => {
      await hub.subscribe(req.params.uri, updated);
      return {};
    }),
  );
  server.setRequestHandler(UnsubscribeRequestSchema, (req) =>
    resourceCall(async () => {
      await hub.unsubscribe(req.params.uri, updated);
      return {};
    }),
  );
  // A window reloaded into another version (or with other topics) changes the tool set: say so.
  const unsubscribe = conn.onChange((client) => {
    if (listed === undefined || !client) return;
    void toolsFor(client, filter).then((tools) => {
      const names = tools.map((t) => t.name).join(',');
      if (names !== listed) void server.sendToolListChanged().catch(() => undefined);
    });
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    void hub.removeAll(updated);
    previous?.();
  };
  return server;
}
