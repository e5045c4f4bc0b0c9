// A client in a process of its own (as a real one would be, not sharing an event loop with the load the
// test makes): connects `count` times, `gapMs` apart, each time handshaking and asking fs/findFiles.
// argv: <url> <token> <count> <gapMs>. Prints one JSON line: {latencies: ms[], errors: string[]}.
import { connect } from '../../../generated/v0.1.6/client';

const [url, token, count, gapMs] = process.argv.slice(2);
const latencies: number[] = [];
const errors: string[] = [];
for (let i = 0; i < Number(count); i++) {
  await new Promise((r) => setTimeout(r, Number(gapMs)));
  const t0 = Date.now();
  try {
    const c = await connect({ url: url!, token: token!, timeoutMs: 10_000 });
    await c.fsFindFiles({ query: 'shapes' });
    latencies.push(Date.now() - t0);
    c.close();
  } catch (e) {
    errors.push((e as Error).message);
  }
}
process.stdout.write(`${JSON.stringify({ latencies, errors })}\n`);
