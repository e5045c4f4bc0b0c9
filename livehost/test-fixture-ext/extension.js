// Test fixture for livehost/: proves a real extension host with a live language server behind the launcher.
// Listens on 127.0.0.1:<idea.server.port>, then writes the ready signal (idea.server.port + idea.server.authToken)
// into the first workspace folder's .vscode/settings.json. GET /ping?file=<relative path> (Bearer token)
// answers vscode.version and the document symbols of that file.

const vscode = require('vscode');
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

let server;

function writeReadySignal(folder, port, token) {
  const dir = path.join(folder, '.vscode');
  const file = path.join(dir, 'settings.json');
  let settings = {};
  try {
    settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* absent or JSONC: start fresh */
  }
  settings['idea.server.port'] = port;
  settings['idea.server.authToken'] = token;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`; // rename: the launcher never reads a half-written file
  fs.writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

function symbolJson(s) {
  return { name: s.name, kind: vscode.SymbolKind[s.kind], children: (s.children || []).map(symbolJson) };
}

// tsserver starts lazily: retry until the provider answers with something, bounded.
async function documentSymbols(uri, timeoutMs) {
  await vscode.workspace.openTextDocument(uri);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri);
    if ((Array.isArray(r) && r.length) || Date.now() > end) return Array.isArray(r) ? r.map(symbolJson) : [];
    await new Promise((res) => setTimeout(res, 200));
  }
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function activate(context) {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return;
  const port = vscode.workspace.getConfiguration('idea.server').get('port', 7200);
  const token = crypto.randomBytes(24).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url || '/', 'http://127.0.0.1');
      const auth = Buffer.from(String(req.headers.authorization || ''));
      if (auth.length !== expected.length || !crypto.timingSafeEqual(auth, expected))
        return send(res, 401, { error: 'bad token' });
      if (req.method !== 'GET' || u.pathname !== '/ping') return send(res, 404, { error: 'not found' });
      const body = {
        ok: true,
        vscode: { version: vscode.version, appName: vscode.env.appName },
        pid: process.pid,
        node: process.version,
        workspaceFolders: (vscode.workspace.workspaceFolders || []).map((f) => f.uri.toString()),
      };
      const file = u.searchParams.get('file');
      if (file) {
        const uri = vscode.Uri.joinPath(folder.uri, file);
        const t = Date.now();
        body.symbols = await documentSymbols(uri, 30000);
        body.symbolsMs = Date.now() - t;
      }
      send(res, 200, body);
    } catch (e) {
      send(res, 500, { error: String(e?.message || e) });
    }
  });
  server.on('error', (e) => console.error(`[livehost-fixture] server error: ${e.message}`));
  server.listen(port, '127.0.0.1', () => writeReadySignal(folder.uri.fsPath, server.address().port, token));
  context.subscriptions.push({ dispose: () => stop() });
}

function stop() {
  return new Promise((res) => {
    if (!server) return res();
    const s = server;
    server = undefined;
    s.close(() => res());
    s.closeAllConnections();
  });
}

module.exports = { activate, deactivate: stop };
