// An agent's session for the end-to-end tasks: the built `idea-mcp --headless` (idea-server in-process,
// the TypeScript language server behind it) over stdio, driven by the official SDK client. Each call is
// bounded, recorded, and transcribed as the model read it; the transcript is printed at the end (or
// when a step fails), so a failing run shows every answer before it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { within } from '../../support/processes';
import { IDEA_MCP } from './idea-mcp';

export interface AgentResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

export interface Step {
  n: number;
  tool: string;
  args: Record<string, unknown>;
  text: string;
  bytes: number;
  ms: number;
  result: AgentResult;
}

export const lines = (s: string) => s.split('\n');

export interface AgentSessionOptions {
  /** The session's name in the transcript. */
  name: string;
  /** The workspace idea-mcp serves (--cwd). */
  ws: string;
  /** A folder for the session's HOME and registry (made here). */
  tmp: string;
  home: string;
  /** The default bound of one call. */
  stepMs: number;
  /** idea-mcp's --timeout: the longest call it waits for. */
  timeoutMs: number;
}

export async function agentSession(o: AgentSessionOptions) {
  const client = new Client({ name: o.name, version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [IDEA_MCP, '--headless', '--cwd', o.ws, '--timeout', String(o.timeoutMs)],
    env: {
      HOME: join(o.tmp, o.home),
      IDEA_REGISTRY_DIR: join(o.tmp, `${o.home}-registry`),
      PATH: process.env.PATH ?? '',
    },
    stderr: 'pipe',
  });
  mkdirSync(join(o.tmp, o.home));
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => void (stderr = (stderr + c.toString()).slice(-8192)));
  const started = Date.now();
  await within(client.connect(transport), 30_000, 'idea-mcp --headless: initialize');

  const steps: Step[] = [];
  const transcript = [`${o.name} ($WS = ${o.ws}); idea-mcp --headless over stdio, SDK client`];
  const short = (s: string) => s.split(o.ws).join('$WS');
  /**
   * One tool call, bounded (`ms`), recorded and printed as a model would read it; a tool error is
   * returned when `allowError`, else thrown with its text.
   */
  const call = async (
    tool: string,
    args: Record<string, unknown>,
    { allowError = false, ms = o.stepMs }: { allowError?: boolean; ms?: number } = {},
  ): Promise<Step> => {
    const t0 = Date.now();
    let result: AgentResult;
    try {
      result = (await within(
        client.callTool({ name: tool, arguments: args }, undefined, { timeout: ms + 15_000 }),
        ms,
        `${tool} ${JSON.stringify(args)}`,
      )) as AgentResult;
    } catch (e) {
      throw new Error(`${(e as Error).message}\nidea-mcp's stderr, last lines:\n${stderr}`);
    }
    const text = result.content.map((c) => c.text).join('\n');
    const s = { n: steps.length + 1, tool, args, text, bytes: Buffer.byteLength(text), ms: Date.now() - t0, result };
    steps.push(s);
    const head = lines(short(text)).slice(0, 3);
    transcript.push(
      [
        `#${s.n} ${tool} ${short(JSON.stringify(args))} → ${s.bytes} B, ${lines(text).length} line(s), ${s.ms} ms${result.isError ? ' (tool error)' : ''}`,
        ...head.map((l) => `    | ${l}`),
        ...(lines(text).length > head.length ? [`    | … ${lines(text).length - head.length} more lines`] : []),
      ].join('\n'),
    );
    if (!result.isError || allowError) return s;
    throw new Error(`${tool} answered a tool error: ${text}`);
  };
  /** `s`'s text is at most `max` bytes, because `why`. */
  const bounded = (s: Step, max: number, why: string) =>
    expect(s.bytes, `#${s.n} ${s.tool}: ${s.bytes} B > ${max} B, but ${why}`).toBeLessThanOrEqual(max);
  /** Prints the transcript and ends the session. */
  const finish = async () => {
    const total = steps.reduce((n, s) => n + s.bytes, 0);
    transcript.push(`${steps.length} calls, ${total} B of text in all, ${Date.now() - started} ms from start`);
    console.log(transcript.join('\n'));
    await client.close();
  };
  /** The tools idea-mcp lists, by name. */
  const toolNames = async () => (await within(client.listTools(), 30_000, 'tools/list')).tools.map((t) => t.name);
  return { call, bounded, steps, finish, toolNames };
}
