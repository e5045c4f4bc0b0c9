// Entry point: builds the core's handlers over the VS Code host (host.ts), starts the server (idea.server.autoStart), and
// contributes the status bar item and the start/stop/copy-connection-info commands.
import { mkdir } from 'node:fs/promises';
import * as vscode from 'vscode';
import { createCoreHandlers } from '../../server-core/handlers';
import type { FileChange } from '../../server-core/host';
import { applyLimitSettings } from '../../server-core/limits/settings';
import { disposeRegexPool, regexPool, setRegexWorkerScript } from '../../server-core/search/regex-pool';
import { configureSpawner, disposeSpawner, prewarmSpawner } from '../../server-core/spawn/processes';
import { recoverInterruptedWrites } from '../../server-core/write/journal';
import { DiagnosticsTracker } from './diagnostics-wait';
import { vscodeEventSources } from './events';
import { vscodeHost } from './host';
import { IdeaServer } from './server';
import { watchTsServerState } from './ts-server';

let server: IdeaServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('IDEA Server');
  const log = (m: string) => output.appendLine(`[${new Date().toISOString()}] ${m}`);
  const tracker = new DiagnosticsTracker();
  // Before any request: tsserver readiness is remembered only while its invalidating events are watched.
  context.subscriptions.push(watchTsServerState());
  const host = vscodeHost(context, tracker, log);
  const { stateDir } = host.tools;
  await mkdir(stateDir, { recursive: true });
  // A write the host was killed in the middle of is undone before any client can see the files.
  await recoverInterruptedWrites(stateDir, log);
  log(
    `IDEA extension ${context.extension.packageJSON.version} in VS Code ${vscode.version}; ripgrep ${host.tools.ripgrep ?? 'none (the JavaScript search)'}; local history ${host.localHistory.home}`,
  );
  const stopLimitSettings = applyLimitSettings(host.limits, log);
  context.subscriptions.push({ dispose: stopLimitSettings }, { dispose: disposeRegexPool });
  // User regular expressions run in worker threads; one is started now so the first search is warm.
  setRegexWorkerScript(context.asAbsolutePath('dist/regex-worker.cjs'));
  regexPool().prewarm();
  // git and rg start in a spawner process: spawn() from the host would block it ~30 ms per process.
  configureSpawner({ script: context.asAbsolutePath('dist/spawner.cjs'), log });
  context.subscriptions.push({ dispose: disposeSpawner });
  prewarmSpawner();
  const events = vscodeEventSources(host, (event, data) => server?.emit(event, data));
  context.subscriptions.push(events);
  // Our writes replace files by a rename, which VS Code's watcher reports as created: say changed (T39).
  const core = { ...host, written: (c: readonly FileChange[]) => events.sources.ownWritesCommitted(c) };
  server = new IdeaServer(createCoreHandlers(core), log, events.sources);

  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = 'idea.server.copyConnectionInfo';
  const render = () => {
    const info = server?.info;
    status.text = info ? `$(radio-tower) IDEA :${info.port} · ${server!.clientCount}` : '$(circle-slash) IDEA off';
    status.tooltip = info
      ? `IDEA server on ${info.url}, ${server!.clientCount} client(s). Click to copy connection info.`
      : 'IDEA server stopped';
    status.show();
  };

  context.subscriptions.push(
    output,
    tracker,
    server,
    status,
    server.onDidChange(render),
    vscode.commands.registerCommand('idea.server.start', async () => {
      const info = await server?.start();
      if (info) void vscode.window.showInformationMessage(`IDEA server listening on ${info.url}`);
    }),
    vscode.commands.registerCommand('idea.server.stop', async () => {
      await server?.stop();
      void vscode.window.showInformationMessage('IDEA server stopped');
    }),
    vscode.commands.registerCommand('idea.server.copyConnectionInfo', async () => {
      const info = server?.info;
      if (!info) return void vscode.window.showWarningMessage('IDEA server is not running');
      await vscode.env.clipboard.writeText(
        JSON.stringify({ url: info.url, port: info.port, token: info.token, authRequired: info.authRequired }),
      );
      void vscode.window.showInformationMessage('IDEA connection info copied');
    }),
  );
  render();
  if (vscode.workspace.getConfiguration('idea.server').get<boolean>('autoStart', true)) await server.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
