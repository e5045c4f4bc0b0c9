// Per-connection handler wrapping: client identity through every await, the per-server bound on
// requests in flight (with a small reserve per connection), slots given back however a handler ends.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentClient } from '../../../extension/src/limits/client-context';
import { configureLimits, LIMIT_RANGES, limits } from '../../../extension/src/limits/config';
import { handlersForClient, RESERVED_PER_CONNECTION, RequestGate } from '../../../extension/src/limits/requests';

const tick = () => new Promise((r) => setImmediate(r));

describe('handlersForClient', () => {
  it('runs each call as its connection, across awaits, and keeps non-function members', async () => {
    const handlers = {
      who: async () => {
        await tick();
        await new Promise((r) => setTimeout(r, 1));
        return currentClient();
      },
      version: 3,
    };
    const gate = new RequestGate(() => 100);
    const a = handlersForClient(handlers, 'conn-a', gate);
    const b = handlersForClient(handlers, 'conn-b', gate);
    expect(await Promise.all([a.who(), b.who(), a.who()])).toEqual(['conn-a', 'conn-b', 'conn-a']);
    expect(a.version).toBe(3);
    expect(currentClient()).toBe('internal');
  });

  it('refuses a request over the server bound with a clear error, admits light connections, and counts down on errors', async () => {
    const gate = new RequestGate(() => 16);
    let open: (() => void)[] = [];
    const handlers = {
      hold: () => new Promise<string>((r) => open.push(() => r('done'))),
      fail: async () => {
        throw new Error('handler failed');
      },
    };
    const heavy = handlersForClient(handlers, 'heavy', gate);
    const light = handlersForClient(handlers, 'light', gate);
    const held = Array.from({ length: 16 }, () => heavy.hold());
    await tick();
    expect(gate.inFlight).toBe(16);
    await expect(heavy.hold()).rejects.toThrow(/too many requests in flight on this server \(limit 16/);
    // A connection with fewer than RESERVED_PER_CONNECTION in flight still gets in.
    const lightOnes = Array.from({ length: RESERVED_PER_CONNECTION }, () => light.hold());
    await tick();
    await expect(light.hold()).rejects.toThrow(/too many requests in flight/);
    await expect(light.fail()).rejects.toThrow(/too many requests in flight/);
    for (const o of open) o();
    open = [];
    await Promise.all([...held, ...lightOnes]);
    expect(gate.inFlight).toBe(0);
    await expect(light.fail()).rejects.toThrow('handler failed');
    expect(gate.inFlight).toBe(0);
  });
});

describe('limit settings', () => {
  it('package.json declares every limit, machine-scoped, with the same default and range', () => {
    const props = JSON.parse(readFileSync(new URL('../../../extension/package.json', import.meta.url), 'utf8'))
      .contributes.configuration.properties;
    for (const r of Object.values(LIMIT_RANGES)) {
      expect(props[r.setting], r.setting).toMatchObject({
        type: 'integer',
        scope: 'machine',
        default: r.dflt,
        minimum: r.min,
        maximum: r.max,
      });
    }
  });

  it('clamps values to their range, ignores non-integers, and resets what is not given', () => {
    try {
      const l = configureLimits({
        maxChildProcesses: 0,
        regexTimeBudgetMs: 1e12,
        regexWorkers: 2.5,
        maxLineBytes: '9',
      });
      expect(l.maxChildProcesses).toBe(1);
      expect(l.regexTimeBudgetMs).toBe(LIMIT_RANGES.regexTimeBudgetMs.max);
      expect(l.regexWorkers).toBe(LIMIT_RANGES.regexWorkers.dflt);
      expect(l.maxLineBytes).toBe(LIMIT_RANGES.maxLineBytes.dflt);
      configureLimits({ maxChildProcesses: 3 });
      expect(limits().regexTimeBudgetMs).toBe(LIMIT_RANGES.regexTimeBudgetMs.dflt);
    } finally {
      configureLimits({});
    }
  });
});
