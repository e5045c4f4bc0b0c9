// Starting the built idea-mcp (mcp/dist) the way an MCP client does: a child process, over stdio or HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTarget } from '../../../scripts/build';
import { exited, exitStatus } from '../../support/processes';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const IDEA_MCP = join(ROOT, 'mcp/dist/idea-mcp.mjs');

export function buildMcp(): Promise<string> {
  return buildTarget('mcp');
}

export interface HttpMcp {
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** idea-mcp --http on a free port; resolves once it says where it listens. */
export function startHttpMcp(
  cwd: string,
  env: NodeJS.ProcessEnv,
  token = 'live-bearer-token-0123456789abcdef',
  extraArgs: readonly string[] = [],
): Promise<HttpMcp> {
  const child = spawn(process.execPath, [IDEA_MCP, '--http', '--port', '0', '--cwd', cwd, ...extraArgs], {
    env: { ...process.env, ...env, IDEA_MCP_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`idea-mcp --http did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        const url = m[1]!;
        res({
          url,
          origin: new URL(url).origin,
          token,
          child,
          stderr: () => err,
          stop: async () => {
            if (exitStatus(child)) return;
            child.kill('SIGTERM');
            await exited(child, 'idea-mcp --http after SIGTERM');
          },
        });
      }
    });
    child.once('exit', (code) => rej(new Error(`idea-mcp --http exited ${code}: ${err}`)));
  });
}
