// npx tsx livehost/cli.ts --workspace <dir> [--extension <dir>] [--timeout <ms>] [--keep-run] [--quiet]
// Launches a live VS Code with the extension, prints {url, token, workspace, ...} as JSON on stdout, keeps
// running until Ctrl-C (or SIGTERM), then tears everything down.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { launchHost } from './launch';
import { REPO_ROOT } from './paths';

const USAGE = 'usage: npx tsx livehost/cli.ts --workspace <dir> [--extension <dir>] [--timeout <ms>] [--keep-run] [--quiet]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        workspace: { type: 'string', short: 'w' },
        extension: { type: 'string', short: 'e', default: join(REPO_ROOT, 'extension') },
        timeout: { type: 'string' },
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
  const log = values.quiet ? undefined : (line: string) => console.error(line);
  const host = await launchHost({
    workspace: values.workspace, extensionDevPath: values.extension, timeoutMs,
    keepRunDir: values['keep-run'] || undefined, log,
  });
  console.log(JSON.stringify({
    url: host.url, token: host.token, workspace: host.workspace,
    codeServerUrl: host.codeServerUrl, runDir: host.runDir, timings: host.timings,
  }, null, 2));
  log?.('livehost: running; press Ctrl-C to stop');
  // The exit hooks registered by launchHost close the host on SIGINT/SIGTERM/SIGHUP and then re-raise the
  // signal; this interval only keeps the process alive until then.
  setInterval(() => {}, 1 << 30);
  return await new Promise<number>(() => {});
}

main().then((code) => process.exit(code), (e: Error) => {
  console.error(e.message);
  process.exit(1);
});
