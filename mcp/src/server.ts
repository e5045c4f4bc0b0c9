// One MCP server (SDK `Server`, tools only) per MCP session; all of them share the IDEA connection.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { IdeaConnection } from './connection';
import { callTool, listTools, toolsFor, UnknownToolError } from './tools';

const SERVER_INFO = { name: 'idea-mcp', title: 'IDEA (VS Code) tools', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Tools that act on the running VS Code window whose workspace contains this folder, through the IDEA protocol: ' +
  'find/replace, definition, references, symbols, diagnostics, git and local history. ' +
  'File paths are workspace-relative or absolute inside an open workspace folder.';

export function createMcpServer(conn: IdeaConnection): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions: INSTRUCTIONS,
  });
  let listed: string | undefined; // the names last returned by tools/list
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await listTools(conn);
    listed = tools.map((t) => t.name).join(',');
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      return await callTool(conn, req.params.name, req.params.arguments);
    } catch (e) {
      if (e instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, e.message);
      throw e;
    }
  });
  // A window reloaded into another version (or with other topics) changes the tool set: say so.
  const unsubscribe = conn.onChange((client) => {
    if (listed === undefined || !client) return;
    void toolsFor(client).then((tools) => {
      const names = tools.map((t) => t.name).join(',');
      if (names !== listed) void server.sendToolListChanged().catch(() => undefined);
    });
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return server;
}
