// livehost's teardown stack: newest first, failures logged not thrown, steps closed are never killed,
// and a step registered after close() started (a stage finishing late) is closed by the next close().
import { describe, expect, it } from 'vitest';
import { Teardown } from '../../livehost/teardown';
import { until } from '../support/wait';

describe('Teardown', () => {
  it('closes newest first, logs a failing step and goes on', async () => {
    const done: string[] = [];
    const logs: string[] = [];
    const t = new Teardown((l) => logs.push(l));
    t.add({ name: 'run folder', close: () => void done.push('run folder') });
    t.add({
      name: 'code-server',
      close: async () => {
        done.push('code-server');
        throw new Error('stuck');
      },
    });
    t.add({ name: 'workbench', close: () => void done.push('workbench') });
    await Promise.all([t.close(), t.close()]);
    expect(done).toEqual(['workbench', 'code-server', 'run folder']);
    expect(logs).toEqual(['livehost: teardown of code-server failed: stuck']);
  });

  it('killSync reaches the steps not closed yet, including the one closing now', async () => {
    const killed: string[] = [];
    const t = new Teardown();
    let release: (() => void) | undefined;
    t.add({ name: 'a', close: () => undefined, killSync: () => void killed.push('a') });
    t.add({ name: 'b', close: () => new Promise<void>((r) => (release = r)), killSync: () => void killed.push('b') });
    t.add({ name: 'c', close: () => undefined, killSync: () => void killed.push('c') });
    const closing = t.close();
    await until('the teardown to reach b', () => release !== undefined);
    t.killSync(); // c is closed; b is in progress
    expect(killed).toEqual(['b', 'a']);
    release!();
    await closing;
    killed.length = 0;
    t.killSync();
    expect(killed).toEqual([]);
  });

  it('a step added after close started is closed by the next close()', async () => {
    const done: string[] = [];
    const t = new Teardown();
    await t.close();
    expect(t.started).toBe(true);
    t.add({ name: 'late browser', close: () => void done.push('late browser') });
    await t.close();
    expect(done).toEqual(['late browser']);
  });
});
