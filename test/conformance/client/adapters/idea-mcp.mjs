#!/usr/bin/env node
// idea-mcp as a client under `idea-conformance client`, driven by the official MCP SDK client over stdio:
// idea-mcp started with `--url <url>` (the token in IDEA_TOKEN), one tools/call per request, all at once,
// the tool named as idea-mcp names it (the topic without /app/vscode/, / → _). A result's
// structuredContent is the line's result; a tool error with its code (`_meta["idea-kit/errorCode"]`, the
// text "CODE: message") is the error; any other tool error, or no MCP session at all, is no answer.
//   node idea-mcp.mjs <path of the built mcp/dist/idea-mcp.mjs> <url>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [bundle] = process.argv.slice(2);
const url = process.argv.at(-1);
const requests = JSON.parse(process.env.IDEA_CONFORMANCE_REQUESTS ?? '[]');
const noAnswer = (why) => ({ error: { code: 'NO_ANSWER', message: String(why?.message ?? why) } });

async function main() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, '--url', url],
    env: { ...process.env },
    stderr: 'inherit', // idea-mcp's log: the runner keeps the end of it for a failing scenario
  });
  const client = new Client({ name: 'idea-conformance-adapter', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    return requests.map(() => noAnswer(e)); // idea-mcp refused to start (a url that is not loopback)
  }
  try {
    return await Promise.all(
      requests.map(async (r) => {
        const name = r.topic.replace(/^\/app\/vscode\//, '').replaceAll('/', '_');
        try {
          const res = await client.callTool({ name, arguments: r.params }, undefined, { timeout: 12_000 });
          if (!res.isError) return { result: res.structuredContent };
          const code = res._meta?.['idea-kit/errorCode'];
          const text = res.content?.[0]?.text ?? '';
          if (typeof code !== 'string') return noAnswer(text);
          return { error: { code, message: text.startsWith(`${code}: `) ? text.slice(code.length + 2) : text } };
        } catch (e) {
          return noAnswer(e);
        }
      }),
    );
  } finally {
    await client.close();
  }
}

const lines = await main();
process.stdout.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), () => process.exit(0));
