// MCP tools/call vs the same request through the typed client, in the same run: edit/find against the
// generated server session on its own thread (handlers answer the spec's example at once, so the
// figures are the protocol layers' cost alone, the worst case for the ratio; a real edit/find takes
// milliseconds in VS Code). Three sides, interleaved in rotating blocks:
//   typed   — generated client → ws → server (the baseline);
//   stdio   — SDK client → stdio → idea-mcp process (mcp/dist, built first) → ws → server (what an
//             agent runs; target ≤ 1.3× the typed client);
//   memory  — SDK client ↔ MCP server in this process (in-memory transport) → ws → server: the MCP
//             layers without the process hop;
//   pipe    — a line of the same size echoed by a child process: what one stdio round trip costs at
//             least, whatever runs behind it.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { IdeaConnection } from '../../mcp/src/connection';
import { createMcpServer } from '../../mcp/src/server';
import { buildTarget } from '../../scripts/build';
import { startServerWorker } from '../core/servers';
import { type BenchRow, emit } from '../lib/contract';
import { BENCH_PARAMS as PARAMS, BENCH_TOPIC as TOPIC } from '../lib/request';
import { TOKEN } from '../lib/server';
import { nowMs, summarize } from '../lib/stats';

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 300);
const ROOT = join(import.meta.dirname, '..', '..');

async function timed(n: number, once: () => Promise<unknown>): Promise<Float64Array> {
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await once();
    lat[i] = nowMs() - t0;
  }
  return lat;
}

async function mcpCall(client: Client): Promise<void> {
  const r = await client.callTool({ name: 'edit_find', arguments: PARAMS });
  if (r.isError) throw new Error(`edit_find failed: ${JSON.stringify(r.content)}`);
}

/** A child process echoing lines: the floor of one stdio round trip (two pipe hops, two wake-ups). */
function pipeEcho(): { child: ChildProcess; roundTrip: (line: string) => Promise<void> } {
  const child = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let waiting: (() => void) | undefined;
  let buf = '';
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    const i = buf.indexOf('\n');
    if (i >= 0) {
      buf = buf.slice(i + 1);
      waiting?.();
    }
  });
  return {
    child,
    roundTrip: (line) =>
      new Promise<void>((res) => {
        waiting = res;
        child.stdin!.write(line);
      }),
  };
}

async function main(): Promise<void> {
  await buildTarget('mcp');
  const server = await startServerWorker('idea');
  const typed: IdeaClient = await connect({ url: server.url, token: TOKEN, validate: true });

  const stdio = new Client({ name: 'bench-stdio', version: '1' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'mcp/dist/idea-mcp.mjs'), '--url', server.url],
      env: { ...process.env, IDEA_TOKEN: TOKEN } as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  const conn = new IdeaConnection({ url: server.url, token: TOKEN });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const mcpServer = createMcpServer(conn);
  await mcpServer.connect(a);
  const memory = new Client({ name: 'bench-memory', version: '1' });
  await memory.connect(b);
  for (const c of [stdio, memory]) await c.listTools(); // the SDK client then checks structuredContent against outputSchema

  const echo = pipeEcho();
  const line =
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'edit_find', arguments: PARAMS } }) +
    '\n';
  const sides: [string, (n: number) => Promise<Float64Array>][] = [
    ['typed', (n) => timed(n, () => typed.request(TOPIC, PARAMS))],
    ['pipe', (n) => timed(n, () => echo.roundTrip(line))],
    ['stdio', (n) => timed(n, () => mcpCall(stdio))],
    ['memory', (n) => timed(n, () => mcpCall(memory))],
  ];
  for (const [, run] of sides) await run(500); // warm-up: JIT, buffers
  const samples = new Map<string, number[]>(sides.map(([k]) => [k, []]));
  for (let k = 0; k < BLOCKS; k++) {
    for (let j = 0; j < sides.length; j++) {
      const [name, run] = sides[(k + j) % sides.length]!;
      samples.get(name)!.push(...(await run(PER_BLOCK)));
    }
  }
  const t = summarize(samples.get('typed')!),
    s = summarize(samples.get('stdio')!),
    m = summarize(samples.get('memory')!);
  const p = summarize(samples.get('pipe')!);
  const us = (ms: number) => ms * 1000;
  const row = (metric: string, v: number, base: number, target?: number): BenchRow => ({
    metric,
    value: us(v),
    unit: 'µs',
    baseline: us(base),
    ratio: v / base,
    ...(target ? { target: `≤ ${target.toFixed(2)}×`, ok: v / base <= target } : {}),
  });
  emit({
    name: 'MCP tools/call vs typed client',
    rows: [
      row('p50 tools/call edit_find over stdio (idea-mcp process) vs typed client', s.p50, t.p50, 1.3),
      row('p90 tools/call over stdio vs typed client', s.p90, t.p90),
      row('p50 tools/call in-process MCP (no process hop) vs typed client', m.p50, t.p50),
      row('p50 stdio process hop alone (stdio vs in-process MCP)', s.p50, m.p50),
      row('p50 raw stdio echo through a child process (the floor of any stdio hop) vs typed client', p.p50, t.p50),
      { metric: 'samples per side', value: t.n, unit: 'calls' },
    ],
  });
  await stdio.close();
  await memory.close();
  await mcpServer.close();
  await conn.close();
  await typed.close();
  echo.child.kill();
  await server.stop();
}

await main();
