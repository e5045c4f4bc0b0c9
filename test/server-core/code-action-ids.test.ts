// The code-action id table (clause T54): an id is good on its own connection only, for 10 minutes (and
// not a moment past), unique and not guessable; each connection keeps its newest ids and the table the
// connections that listed last, so neither a listing loop nor many connections grow it without end.
import { describe, expect, it } from 'vitest';
import { CODE_ACTION_TTL_MS, CodeActionIds } from '../../server-core/code-action-ids';
import type { CodeActionOffer } from '../../server-core/host';

const offer = (title: string): CodeActionOffer => ({ title, kind: 'quickfix', diagnostics: [], handle: title });
const entry = (title: string) => ({ path: '/w/a.ts', sha256: 'a'.repeat(64), offer: offer(title) });

describe('code action ids', () => {
  it("an id is its connection's, good for 10 minutes and not a moment longer", () => {
    let now = 1_000_000;
    const ids = new CodeActionIds(() => now);
    const id = ids.add('connection-1', entry('Fix'));
    expect(id).toMatch(/^ca-1-[0-9a-f]{12}$/);
    expect(ids.get('connection-1', id)?.offer.title).toBe('Fix');
    expect(ids.get('connection-2', id)).toBeUndefined();
    expect(ids.get('connection-1', 'ca-1-000000000000')).toBeUndefined();
    now += CODE_ACTION_TTL_MS;
    expect(ids.get('connection-1', id)?.offer.title).toBe('Fix');
    now += 1;
    expect(ids.get('connection-1', id)).toBeUndefined();
    expect(ids.size).toBe(0);
  });

  it('ids are unique across connections and lists', () => {
    const ids = new CodeActionIds();
    const given = new Set<string>();
    for (let i = 0; i < 200; i++) given.add(ids.add(`connection-${i % 3}`, entry(`a${i}`)));
    expect(given.size).toBe(200);
  });

  it('a connection keeps its newest ids; the table keeps the connections that listed last', () => {
    const ids = new CodeActionIds(Date.now, { ttlMs: CODE_ACTION_TTL_MS, perClient: 3, clients: 2 });
    const first = ids.add('c1', entry('1'));
    const kept = [ids.add('c1', entry('2')), ids.add('c1', entry('3')), ids.add('c1', entry('4'))];
    expect(ids.get('c1', first)).toBeUndefined();
    expect(kept.map((id) => ids.get('c1', id)?.offer.title)).toEqual(['2', '3', '4']);
    const other = ids.add('c2', entry('x'));
    ids.add('c1', entry('5')); // c1 listed last: c2 is now the least recent
    ids.add('c3', entry('y'));
    expect(ids.get('c2', other)).toBeUndefined();
    expect(ids.get('c1', kept[2]!)?.offer.title).toBe('4');
    expect(ids.size).toBe(4);
  });
});
