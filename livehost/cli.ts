// npx tsx livehost/cli.ts --workspace <dir> [--extension <dir>] [--host code-server|electron|auto] [--vscode oldest|newest] [--timeout <ms>] [--keep-run] [--quiet]
// Launches a live VS Code with the extension, prints {url, token, workspace, ...} as JSON on stdout, keeps
// running until Ctrl-C (or SIGTERM), then tears everything down.

import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchAnyHost } from './backend';
import { BACKEND_REQUESTS, type BackendRequest } from './desktop';
import { HOST_NAMES, type HostName } from './hosts';
import { REPO_ROOT } from './paths';

const USAGE =
  'usage: npx tsx livehost/cli.ts --workspace <dir> [--extension <dir>] [--host code-server|electron|auto] [--vscode oldest|newest] [--timeout <ms>] [--keep-run] [--quiet]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        workspace: { type: 'string', short: 'w' },
        extension: { type: 'string', short: 'e', default: join(REPO_ROOT, 'extension') },
        timeout: { type: 'string' },
        host: { type: 'string' },
        vscode: { type: 'string' },
        'keep-run': { type: 'boolean', default: false },
        quiet: { type: 'boolean', short: 'q', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help || !values.workspace) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(timeoutMs > 0)) {
    console.error(`--timeout must be a positive number of milliseconds\n${USAGE}`);
    return 2;
  }
  if (values.host !== undefined && !(BACKEND_REQUESTS as readonly string[]).includes(values.host)) {
    console.error(`--host must be one of ${BACKEND_REQUESTS.join(', ')}\n${USAGE}`);
    return 2;
  }
  if (values.vscode !== undefined && !(HOST_NAMES as readonly string[]).includes(values.vscode)) {
    console.error(`--vscode must be one of ${HOST_NAMES.join(', ')}\n${USAGE}`);
    return 2;
  }
  const log = values.quiet ? undefined : (line: string) => console.error(line);
  const host = await launchAnyHost({
    workspace: values.workspace,
    extensionDevPath: values.extension,
    timeoutMs,
    keepRunDir: values['keep-run'] || undefined,
    log,
    ...(values.host ? { backend: values.host as BackendRequest } : {}),
    ...(values.vscode ? { vscode: values.vscode as HostName } : {}),
  });
  console.log(
    JSON.stringify(
      {
        backend: host.backend,
        vscode: host.build.vscode,
        url: host.url,
        token: host.token,
        workspace: host.workspace,
        runDir: host.runDir,
      },
      null,
      2,
    ),
  );
  // launchHost's exit hooks tear a code-server host down on signals; the desktop host is closed here.
  if (host.backend === 'electron')
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(sig, () => void host.close().then(() => process.exit(130)));
  log?.('livehost: running; press Ctrl-C to stop');
  // The exit hooks registered by launchHost close the host on SIGINT/SIGTERM/SIGHUP and then re-raise the
  // signal; this interval only keeps the process alive until then.
  setInterval(() => {}, 1 << 30);
  return await new Promise<number>(() => {});
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(e.message);
    process.exit(1);
  },
);
