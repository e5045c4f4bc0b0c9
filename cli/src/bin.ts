// Entry point of the compiled CLI (cli/dist/idea.cjs). The spec it derives its commands from is
// embedded by scripts/build.ts as __IDEA_SPEC__.
import { run } from './main';
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

run(process.argv.slice(2), __IDEA_SPEC__, {
  env: process.env,
  cwd: process.cwd(),
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  stdoutIsTTY: process.stdout.isTTY === true,
  interrupted,
}).then((code) => {
  process.exitCode = code;
});
