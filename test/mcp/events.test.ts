// Issue 20 item 8 through the official MCP SDK client: a tool call the MCP client cancels
// (notifications/cancelled) is cancelled on the IDEA server (a cancel frame; the handler's signal
// aborts), and diagnostics and the editor state are resources whose subscriptions follow the IDEA
// events, subscribed on the IDEA side only while some MCP session is subscribed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiagListResult, EditorContextResult } from '../../generated/v0.1.7/types';
import { IdeaConnection } from '../../mcp/src/connection';
import { hubOf } from '../../mcp/src/resources';
import { createMcpServer } from '../../mcp/src/server';
import { EVENT_TOKEN, type EventServer, startEventServer } from '../cli/event-server';
import { silence, timed, until } from '../support/wait';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const DIAGS: DiagListResult = { diagnostics: [], totalCount: 0 };
const EDITOR: EditorContextResult = { activeEditor: null, visibleEditors: [], tabs: [] };

async function server(opts: Parameters<typeof startEventServer>[0] = {}): Promise<EventServer> {
  const s = await startEventServer({
    handlers: { diagList: async () => DIAGS, editorContext: async () => EDITOR },
    ...opts,
  });
  cleanup.push(() => s.close());
  return s;
}

function connection(s: EventServer): IdeaConnection {
  const conn = new IdeaConnection({ url: s.url, token: EVENT_TOKEN });
  cleanup.push(() => conn.close());
  return conn;
}

/** An MCP session over `conn`, and the resources/updated notifications it received. */
async function session(conn: IdeaConnection): Promise<{ client: Client; updated: string[] }> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const srv = createMcpServer(conn);
  await srv.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  await client.connect(b);
  cleanup.push(async () => {
    await client.close();
    await srv.close();
  });
  return { client, updated };
}

const eventFrames = (s: EventServer) =>
  s.frames.filter((f) => String(f.topic).startsWith('/app/vscode/events/')).map((f) => [f.topic, f.params]);

describe('idea-mcp and the v0.1.7 events', () => {
  it('notifications/cancelled cancels the IDEA request: a cancel frame, the handler signal aborted', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let aborted = false;
    const s = await server({
      handlers: {
        editFind: (_params, ctx) =>
          new Promise((_resolve, reject) => {
            started();
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('stopped'));
            });
          }),
      },
    });
    const { client } = await session(connection(s));
    const ac = new AbortController();
    const call = client.callTool({ name: 'edit_find', arguments: { pattern: 'x' } }, undefined, { signal: ac.signal });
    await running;
    ac.abort('enough');
    await expect(call).rejects.toThrow();
    await until('the handler to stop', () => aborted);
    const find = s.frames.find((f) => f.topic === '/app/vscode/edit/find');
    expect(s.frames.filter((f) => f.type === 'cancel')).toEqual([{ type: 'cancel', requestId: find?.requestId }]);
  });

  it('lists the resources and reads them through their topics; subscribe/unsubscribe are no tools', async () => {
    const s = await server();
    const { client } = await session(connection(s));
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['idea://diagnostics', 'application/json'],
      ['idea://editor', 'application/json'],
    ]);
    const read = await client.readResource({ uri: 'idea://editor' });
    expect(read.contents).toEqual([
      { uri: 'idea://editor', mimeType: 'application/json', text: JSON.stringify(EDITOR) },
    ]);
    const diags = (await client.readResource({ uri: 'idea://diagnostics' })).contents[0] as { text: string };
    expect(JSON.parse(diags.text)).toEqual(DIAGS);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('diag_list');
    expect(tools.filter((t) => t.startsWith('events'))).toEqual([]);
    await expect(client.readResource({ uri: 'idea://nothing' })).rejects.toThrow(/unknown resource: idea:\/\/nothing/);
  });

  it('IDEA events become resources/updated, subscribed on the IDEA side only while an MCP session is', async () => {
    const s = await server();
    const conn = connection(s);
    const one = await session(conn);
    const two = await session(conn);
    s.emit('/app/vscode/diagnostics/changed', { files: [] }); // nobody subscribed: nothing
    await one.client.subscribeResource({ uri: 'idea://diagnostics' });
    await two.client.subscribeResource({ uri: 'idea://diagnostics' });
    await two.client.subscribeResource({ uri: 'idea://editor' });
    expect(eventFrames(s)).toEqual([
      ['/app/vscode/events/subscribe', { events: ['/app/vscode/diagnostics/changed'] }],
      ['/app/vscode/events/subscribe', { events: ['/app/vscode/editor/changed'] }],
    ]);
    const f = `${s.workspace}/a.ts`;
    s.emit('/app/vscode/diagnostics/changed', { files: [{ filePath: f, added: [], removed: [], total: 0 }] });
    s.emit('/app/vscode/files/changed', { changes: [{ filePath: f, change: 'changed' }] }); // no resource
    s.emit('/app/vscode/editor/changed', { activeFile: f, selections: [], visibleFiles: [], dirtyFiles: [] });
    const { ms } = await timed(() =>
      until('the notifications', () => one.updated.length === 1 && two.updated.length === 2),
    );
    expect(one.updated).toEqual(['idea://diagnostics']);
    expect(two.updated).toEqual(['idea://diagnostics', 'idea://editor']);

    await one.client.unsubscribeResource({ uri: 'idea://diagnostics' });
    expect(eventFrames(s)).toHaveLength(2); // the other session still holds it
    await two.client.unsubscribeResource({ uri: 'idea://diagnostics' });
    await two.client.close(); // its editor subscription goes with the session
    await until('the IDEA unsubscriptions', () => eventFrames(s).length === 4);
    expect(eventFrames(s).slice(2)).toEqual([
      ['/app/vscode/events/unsubscribe', { events: ['/app/vscode/diagnostics/changed'] }],
      ['/app/vscode/events/unsubscribe', { events: ['/app/vscode/editor/changed'] }],
    ]);
    expect(hubOf(conn).subscribedEvents).toEqual([]);
    s.emit('/app/vscode/diagnostics/changed', { files: [] });
    await silence(ms); // subscribed, the same event's notifications came within `ms`
    expect(one.updated).toEqual(['idea://diagnostics']);
  });

  it('after a reconnection (a reloaded window) the hub subscribes on the new link again', async () => {
    const first = await startEventServer({ handlers: { diagList: async () => DIAGS } });
    const conn = connection(first);
    const { client, updated } = await session(conn);
    await client.subscribeResource({ uri: 'idea://diagnostics' });
    const port = first.port;
    await first.close();
    const again = await server({ port });
    await until('the subscription on the new link', () => eventFrames(again).length === 1);
    expect(eventFrames(again)).toEqual([
      ['/app/vscode/events/subscribe', { events: ['/app/vscode/diagnostics/changed'] }],
    ]);
    again.emit('/app/vscode/diagnostics/changed', { files: [] });
    await until('the notification', () => updated.length === 1);
    expect(updated).toEqual(['idea://diagnostics']);
  });

  it('a server that does not push the event: not listed, and subscribing is an error naming it', async () => {
    const s = await server({ events: ['/app/vscode/files/changed'] });
    const { client } = await session(connection(s));
    expect((await client.listResources()).resources).toEqual([]);
    await expect(client.subscribeResource({ uri: 'idea://editor' })).rejects.toThrow(
      /does not push \/app\/vscode\/editor\/changed/,
    );
    expect(eventFrames(s)).toEqual([]);
  });
});
