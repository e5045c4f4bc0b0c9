// Entry point of the compiled CLI (cli/dist/idea.cjs). The spec it derives its commands from is
// embedded by scripts/build.ts as __IDEA_SPEC__.
import { run } from './main';
import { MAX_PARAMS_FILE_BYTES } from './params-file';
import type { SpecBundle } from './spec';

declare const __IDEA_SPEC__: SpecBundle;

// `idea find x | head -1`: a reader that went away is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

/** Ctrl-C (or TERM) from the first call on: only `idea watch` asks, every other command keeps the default. */
function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** Standard input, whole (`idea apply -`), up to the params file's bound. */
async function stdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin) {
    size += (c as Buffer).length;
    if (size > MAX_PARAMS_FILE_BYTES) throw new Error(`over ${MAX_PARAMS_FILE_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

run(process.argv.slice(2), __IDEA_SPEC__, {
  env: process.env,
  cwd: process.cwd(),
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  stdoutIsTTY: process.stdout.isTTY === true,
  stdin,
  interrupted,
}).then((code) => {
  process.exitCode = code;
});
