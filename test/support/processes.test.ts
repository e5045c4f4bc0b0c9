// The bounded process waits of the test harnesses, on real processes.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exited, within } from './processes';

function sleeper() {
  return spawn('sleep', ['30'], { stdio: 'ignore' });
}

describe('exited', () => {
  it('resolves for a child killed by a signal and reaped before the wait began', async () => {
    // The hung SIGKILL test of issue 30: its wait checked only exitCode (null after a signal), then
    // listened for an 'exit' that had already been emitted.
    const child = sleeper();
    await new Promise((r) => child.once('spawn', r));
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    expect(child.exitCode).toBeNull();
    await expect(exited(child, 'the killed sleeper', 2_000)).resolves.toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('waits for an exit still to come', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(3), 100)'], { stdio: 'ignore' });
    await expect(exited(child, 'node', 10_000)).resolves.toEqual({ code: 3, signal: null });
  });

  it('fails after its bound, saying what it waited for', async () => {
    const child = sleeper();
    try {
      await expect(exited(child, 'a sleeper never asked to stop', 200)).rejects.toThrow(
        /a sleeper never asked to stop: process \d+ did not exit within 200 ms/,
      );
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('within', () => {
  it('passes a value through and bounds a promise that never settles', async () => {
    await expect(within(Promise.resolve(7), 1_000, 'seven')).resolves.toBe(7);
    await expect(within(new Promise(() => {}), 100, 'the registry entry')).rejects.toThrow(
      'the registry entry: nothing within 100 ms',
    );
  });
});
