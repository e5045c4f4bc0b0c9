// `idea-conformance record`: start the recording proxy and print where clients should connect.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readFixtureWorkspace } from '../workspace';
import { startRecorder } from './proxy';

const USAGE =
  'usage: idea-conformance record --upstream ws://127.0.0.1:<port> --workspace <dir> --out <folder> [--port N] [--prefix name] [--allow-unknown-topic]\n(see conformance/recorder/README.md)\n';

export async function recordCli(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { values } = parseArgs({
    args,
    options: {
      upstream: { type: 'string' },
      workspace: { type: 'string' },
      out: { type: 'string' },
      port: { type: 'string' },
      prefix: { type: 'string' },
      'allow-unknown-topic': { type: 'boolean' },
    },
  });
  if (!values.upstream || !values.workspace || !values.out) {
    process.stderr.write(USAGE);
    return 2;
  }
  const workspace = resolve(values.workspace);
  let hashes = new Map<string, string>();
  try {
    const info = readFixtureWorkspace(workspace);
    hashes = new Map(Object.entries(info.commits).map(([name, h]) => [h, `commit.${name}`]));
  } catch {
    // not a fixture workspace: hashes become regex rules
  }
  const rec = await startRecorder({
    upstream: values.upstream,
    workspace,
    outDir: resolve(values.out),
    hashes,
    port: values.port ? Number(values.port) : 0,
    prefix: values.prefix,
    allowUnknownTopic: values['allow-unknown-topic'],
    onCase: (f) => process.stderr.write(`recorded ${f}\n`),
    onSkip: (why) => process.stderr.write(`${why}\n`),
  });
  process.stdout.write(`recording proxy on ${rec.url} → ${values.upstream}; Ctrl-C to stop\n`);
  await new Promise<void>((res) => {
    process.once('SIGINT', res);
    process.once('SIGTERM', res);
  });
  await rec.close();
  process.stderr.write(`${rec.written.length} cases written\n`);
  return 0;
}
