// Bench only (bench/extension/nav-vs-direct.bench.ts), never shipped: runs a VS Code command N times
// inside the extension host, as the IDEA extension's handlers run it, and answers the time of each call.
// Listens on 127.0.0.1 (port 0) and writes {port, token} to the file IDEA_BENCH_PROBE_FILE names.
// GET /time?command=<id>&file=<absolute path>&line=&character=&n=[&idle=ms] (Bearer token) →
// {samples: ms[], results: number} (results: how many items the last call answered). idle: the host
// sleeps that long (untimed) before each call, as it idles between the calls of a client.

const vscode = require('vscode');
const http = require('node:http');
const fs = require('node:fs');
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');

// The commands the bench compares with; anything else is refused (the probe runs no arbitrary command).
const COMMANDS = new Set([
  'vscode.executeDefinitionProvider',
  'vscode.executeHoverProvider',
  'vscode.executeTypeDefinitionProvider',
  'vscode.executeImplementationProvider',
]);
let server;

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function time(u) {
  const command = u.searchParams.get('command');
  if (!COMMANDS.has(command)) throw new Error(`command not allowed: ${command}`);
  const n = Math.min(Math.max(Number(u.searchParams.get('n')) || 1, 1), 1000);
  const idle = Math.min(Math.max(Number(u.searchParams.get('idle')) || 0, 0), 100);
  const uri = vscode.Uri.file(String(u.searchParams.get('file')));
  const at = new vscode.Position(Number(u.searchParams.get('line')), Number(u.searchParams.get('character')));
  await vscode.workspace.openTextDocument(uri); // as the IDEA handler's document is: open before timing
  const samples = [];
  let results = 0;
  for (let i = 0; i < n; i++) {
    if (idle > 0) await new Promise((r) => setTimeout(r, idle));
    const t0 = performance.now();
    const r = await vscode.commands.executeCommand(command, uri, at);
    samples.push(performance.now() - t0);
    results = Array.isArray(r) ? r.length : r ? 1 : 0;
  }
  return { samples, results };
}

function activate(context) {
  const file = process.env.IDEA_BENCH_PROBE_FILE;
  if (!file) return;
  const token = crypto.randomBytes(24).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url || '/', 'http://127.0.0.1');
      const auth = Buffer.from(String(req.headers.authorization || ''));
      if (auth.length !== expected.length || !crypto.timingSafeEqual(auth, expected))
        return send(res, 401, { error: 'bad token' });
      if (req.method !== 'GET' || u.pathname !== '/time') return send(res, 404, { error: 'not found' });
      send(res, 200, await time(u));
    } catch (e) {
      send(res, 500, { error: String(e?.message || e) });
    }
  });
  server.listen(0, '127.0.0.1', () => {
    const tmp = `${file}.${process.pid}.tmp`; // rename: the bench never reads a half-written file
    fs.writeFileSync(tmp, JSON.stringify({ port: server.address().port, token }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  });
  context.subscriptions.push({ dispose: () => server?.close() });
}

module.exports = { activate, deactivate: () => server?.close() };
