#!/usr/bin/env node
// The `idea` CLI as a client under `idea-conformance client`: one `idea call <topic> --params <json> --json
// --url <url>` per request, all at once (each its own connection), the token from IDEA_TOKEN as the CLI
// reads it. What the CLI prints becomes the line: its JSON result (exit 0), or the error its stderr names
// (`idea: CODE: message`, exit 1); a timeout, a closed connection (exit 3) or a refused url (exit 2) is
// no answer.
//   node idea-cli.mjs <path of the built cli/dist/idea.cjs> <url>
import { spawn } from 'node:child_process';

const [bundle] = process.argv.slice(2);
const url = process.argv.at(-1);
const requests = JSON.parse(process.env.IDEA_CONFORMANCE_REQUESTS ?? '[]');

function call(r) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [bundle, 'call', r.topic, '--params', JSON.stringify(r.params), '--json', '--url', url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => {
      const m = /^idea: ([A-Z_]+): ([\s\S]*?)\n?$/.exec(err);
      if (code === 0) resolve({ result: JSON.parse(out) });
      else if (code === 1 && m && m[1] !== 'TIMEOUT') resolve({ error: { code: m[1], message: m[2] } });
      else resolve({ error: { code: 'NO_ANSWER', message: `idea exited ${code}: ${err.trim()}` } });
    });
  });
}

const lines = await Promise.all(requests.map(call));
process.stdout.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), () => process.exit(0));
