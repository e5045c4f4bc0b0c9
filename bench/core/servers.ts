// Starts a server-worker (see server-worker.ts) and hands back its URL and a stop function.
import { Worker } from 'node:worker_threads';

export interface WorkerServer {
  url: string;
  stop(): Promise<void>;
}

export async function startServerWorker(
  kind: 'echo' | 'json' | 'idea',
  opts: { validateResults?: boolean; topic?: string } = {},
): Promise<WorkerServer> {
  // Workers do not inherit tsx's loader: register it first, then load the TypeScript entry.
  const entry = new URL('./server-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  const w = new Worker(boot, { eval: true, workerData: { kind, ...opts } });
  const url = await new Promise<string>((resolve, reject) => {
    w.once('message', (m) => resolve(m.url));
    w.once('error', reject);
  });
  return {
    url,
    stop: async () => {
      w.postMessage('close');
      await new Promise((r) => w.once('exit', r));
    },
  };
}
