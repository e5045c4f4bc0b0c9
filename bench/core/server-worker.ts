// A server on its own thread (as in real use the server is another process than the client): either
// the raw ws echo baseline, the JSON floor (parse + answer a fixed result) or the generated dispatcher with constant handlers. Posts its URL.
import { parentPort, workerData } from 'node:worker_threads';
import { startEchoServer } from '../lib/echo';
import { constantHandlers, exampleResults, startBenchServer } from '../lib/server';

const { kind, validateResults, topic } = workerData as {
  kind: 'echo' | 'json' | 'idea';
  validateResults?: boolean;
  topic?: string;
};
const srv =
  kind === 'echo'
    ? await startEchoServer()
    : kind === 'json'
      ? await startEchoServer(exampleResults().get(topic!))
      : await startBenchServer({ handlers: constantHandlers(), validateResults: !!validateResults });
parentPort!.postMessage({ url: srv.url });
parentPort!.on('message', async (m) => {
  if (m === 'close') {
    await srv.close();
    process.exit(0);
  }
});
