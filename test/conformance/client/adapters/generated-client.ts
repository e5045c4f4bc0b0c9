// The generated TypeScript client (generated/current.ts: connect, one request per entry, frames validated)
// as a client under `idea-conformance client`, bundled by the test (our-clients.test.ts): the url from its
// last argument, refused unless loopback (runtime/loopback.ts, the rule our clients keep), the token from
// IDEA_TOKEN, every request sent at once (pipelined), one line each in the array's order.
import { connect, IdeaProtocolError } from '../../../../generated/current';
import { isLoopbackWsUrl } from '../../../../runtime/loopback';

const url = process.argv.at(-1) ?? '';
const requests = JSON.parse(process.env.IDEA_CONFORMANCE_REQUESTS ?? '[]') as {
  topic: string;
  params: Record<string, unknown>;
}[];

const noAnswer = (why: unknown) => ({
  error: { code: 'NO_ANSWER', message: why instanceof Error ? why.message : String(why) },
});
/** A protocol error (an error answer, a refused handshake) by its code; anything else is no answer. */
const lineOf = (e: unknown) =>
  e instanceof IdeaProtocolError ? { error: { code: e.code, message: e.message } } : noAnswer(e);

async function main(): Promise<unknown[]> {
  if (!isLoopbackWsUrl(url)) return requests.map(() => noAnswer(`not a loopback url: ${url}`));
  let client: Awaited<ReturnType<typeof connect>>;
  try {
    client = await connect({ url, token: process.env.IDEA_TOKEN, timeoutMs: 10_000, validate: true });
  } catch (e) {
    return requests.map(() => lineOf(e));
  }
  try {
    const settled = await Promise.allSettled(requests.map((r) => client.request(r.topic as never, r.params as never)));
    return settled.map((s) => (s.status === 'fulfilled' ? { result: s.value } : lineOf(s.reason)));
  } finally {
    await client.close();
  }
}

main().then((lines) =>
  process.stdout.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), () => process.exit(0)),
);
