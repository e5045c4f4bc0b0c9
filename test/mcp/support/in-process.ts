// idea-mcp's MCP server over an IDEA connection, in this process, with the official SDK client linked to
// it in memory: what the unit tests of test/mcp drive.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { IdeaConnection } from '../../../mcp/src/connection';
import { createMcpServer } from '../../../mcp/src/server';
import type { ToolFilter } from '../../../mcp/src/tool-filter';

export interface InProcessMcp {
  client: Client;
  /** Closes the client, the MCP server and the IDEA connection. */
  close(): Promise<void>;
}

export async function inProcessMcp(conn: IdeaConnection, filter?: ToolFilter): Promise<InProcessMcp> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const srv = createMcpServer(conn, filter);
  await srv.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  return {
    client,
    close: async () => {
      await client.close();
      await srv.close();
      await conn.close();
    },
  };
}
