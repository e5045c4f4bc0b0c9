// Entry point of a regex worker thread (bundled to dist/regex-worker.cjs). Runs one job at a time; the
// pool terminates the thread when a job overruns its time budget or the heap limit kills it.
import { parentPort } from 'node:worker_threads';
import { type RegexJob, runJob } from './regex-jobs';

interface WorkerRequest {
  id: number;
  job: RegexJob;
}
export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('regexWorker must run in a worker thread');
port.on('message', (m: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id: m.id, ok: true, result: runJob(m.job) };
  } catch (e) {
    reply = { id: m.id, ok: false, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  port.postMessage(reply);
});
