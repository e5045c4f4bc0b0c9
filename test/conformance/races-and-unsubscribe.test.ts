// clause T41 and T42 as the suite's cases judge them, against scripted servers (scripted-server.ts) doing
// what no engine-made server does: a write answered with its result although a cancel came (the result
// branch of the cancel races, deterministic here), two answers to one request, a "complete" write that
// changed one file of two, no answer at all; events after the unsubscribe's answer.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import type { CaseResult } from '../../conformance/lib/types';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { error, type Frame, result, type ScriptedConnection, startScriptedServer } from './scripted-server';

const REPLACE = '/app/vscode/edit/replace';
const RENAME = '/app/vscode/edit/rename';
const FILES = '/app/vscode/files/changed';
const all = loadCases();

let tmp: string;
let n = 0;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-races-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The cases `ids` against a server scripted by `script(workspace)`, on a workspace of its own. */
async function verdicts(
  ids: string[],
  capabilities: string[],
  script: (ws: string) => (f: Frame, c: ScriptedConnection) => void,
  events?: string[],
): Promise<Record<string, CaseResult>> {
  const ws = buildFixtureWorkspace(join(tmp, `ws-${++n}`)).dir;
  const server = await startScriptedServer({ capabilities, events, workspaces: [ws], onFrame: script(ws) });
  try {
    const s = await runAgainstServer({
      url: server.url,
      token: 'scripted',
      workspace: ws,
      cases: selectCases(all, { ids }),
      settleTimeoutMs: 0,
    });
    return Object.fromEntries(s.results.map((r) => [r.id, r]));
  } finally {
    await server.close();
  }
}

const verdict = (r: CaseResult | undefined) => `${r?.verdict}${r?.reason ? `: ${r.reason}` : ''}`;
const details = (r: CaseResult | undefined) =>
  (r?.checks ?? [])
    .filter((c) => !c.ok)
    .map((c) => `${c.name}: ${c.detail ?? ''}`)
    .join('\n');

const journal = (ws: string) => join(ws, 'notes/journal.md');
/** edit/replace of the race cases, done in full (the cancel ignored): the file written, then its result. */
function replaceInFull(ws: string, f: Frame, c: ScriptedConnection): void {
  writeFileSync(journal(ws), readFileSync(journal(ws), 'utf8').replace('draft-0', 'draft-1'));
  c.send(result(f, { replacedCount: 1, affectedFiles: [journal(ws)] }));
}
/** edit/rename totalArea → sumAreas in `files` (both for a complete rename), then its result. */
function rename(ws: string, f: Frame, c: ScriptedConnection, files = ['src/shapes.ts', 'src/main.ts']): void {
  for (const p of files) {
    const abs = join(ws, p);
    writeFileSync(abs, readFileSync(abs, 'utf8').replaceAll('totalArea', 'sumAreas'));
  }
  const changed = ['src/shapes.ts', 'src/main.ts'].map((p) => join(ws, p));
  c.send(
    result(f, {
      dryRun: false,
      files: changed.map((filePath) => ({ filePath, edits: [], diff: '' })),
      changedFiles: changed,
      editCount: 3,
    }),
  );
}
const WRITE_RACES = [
  'protocol/cancel-race-edit-replace',
  'protocol/cancel-race-edit-replace-late',
  'protocol/cancel-race-edit-rename',
];

describe('T41: the cancel races of write topics', () => {
  it('a write that reached its commit point answers its result though a cancel came: the change complete passes', async () => {
    const r = await verdicts(WRITE_RACES, [REPLACE, RENAME], (ws) => (f, c) => {
      if (f.topic === REPLACE) replaceInFull(ws, f, c);
      else if (f.topic === RENAME) rename(ws, f, c);
    });
    for (const id of WRITE_RACES) {
      expect(verdict(r[id]), details(r[id])).toBe('pass');
      expect(r[id]!.checks.map((k) => k.name)).toContainEqual(expect.stringMatching(/^step\[\d\] \(alternative 2\)$/));
    }
  });

  it('two answers to one request fail (CANCELLED, then the result anyway)', async () => {
    const r = await verdicts(WRITE_RACES.slice(0, 1), [REPLACE], (ws) => (f, c) => {
      if (f.topic !== REPLACE) return;
      c.send(error(f, 'CANCELLED'));
      setTimeout(() => c.send(result(f, { replacedCount: 1, affectedFiles: [journal(ws)] })), 100);
    });
    const res = r['protocol/cancel-race-edit-replace'];
    expect(verdict(res)).toBe('fail: step[2].then[1] failed');
    expect(details(res)).toMatch(
      /^step\[2\]\.then\[1\]: expected no frame for \d+ ms \(10 × \d+ ms measured as raceMs, within 300–1000 ms\), got .*"requestId":"race","result"/,
    );
  });

  it('a result whose change is not complete fails, and so does CANCELLED after a write; no answer at all fails', async () => {
    const [r, silent] = await Promise.all([
      verdicts(
        ['protocol/cancel-race-edit-replace', 'protocol/cancel-race-edit-rename'],
        [REPLACE, RENAME],
        (ws) => (f, c) => {
          if (f.topic === RENAME)
            rename(ws, f, c, ['src/shapes.ts']); // one file of two
          else if (f.topic === REPLACE) {
            writeFileSync(journal(ws), '# Journal\n\nstatus: draft-1\n');
            c.send(error(f, 'CANCELLED'));
          }
        },
      ),
      verdicts(['protocol/cancel-race-edit-replace-late'], [REPLACE], () => () => undefined),
    ]);
    expect(verdict(r['protocol/cancel-race-edit-rename'])).toBe('fail: step[2].then[0], step[2].then[2] failed');
    expect(details(r['protocol/cancel-race-edit-rename'])).toMatch(/\$\.src\/main\.ts: ".*totalArea.*" does not match/);
    expect(verdict(r['protocol/cancel-race-edit-replace'])).toBe('fail: step[2].then[0], step[2].then[2] failed');
    expect(details(r['protocol/cancel-race-edit-replace'])).toContain('-status: draft-0\n+status: draft-1');
    expect(verdict(silent['protocol/cancel-race-edit-replace-late'])).toBe('fail: step[3] failed');
    expect(details(silent['protocol/cancel-race-edit-replace-late'])).toBe(
      'step[3]: expected a frame, nothing arrived before the timeout',
    );
  }, 40_000);
});

describe('T42: no event once the unsubscribe is answered', () => {
  const AFTER = (ws: string) => join(ws, 'probe/after-unsubscribe.md');
  /** Pushes files/changed naming the case's file every 100 ms while `live`; `afterAnswer` events once the unsubscribe is answered. */
  function pusher(afterAnswer: 'stop' | 'one queued' | 'keep on') {
    return (ws: string) => (f: Frame, c: ScriptedConnection) => {
      if (f.topic === '/app/vscode/events/subscribe') {
        c.send(result(f, { subscribed: [FILES] }));
        const timer = setInterval(
          () =>
            c.send({ type: 'event', event: FILES, data: { changes: [{ filePath: AFTER(ws), change: 'changed' }] } }),
          100,
        );
        c.state.set('timer', timer);
        setTimeout(() => clearInterval(timer), 15_000);
      } else if (f.topic === '/app/vscode/events/unsubscribe') {
        const timer = c.state.get('timer') as ReturnType<typeof setInterval>;
        if (afterAnswer !== 'keep on') clearInterval(timer);
        c.send(result(f, { subscribed: [] }));
        if (afterAnswer === 'one queued')
          c.send({ type: 'event', event: FILES, data: { changes: [{ filePath: AFTER(ws), change: 'changed' }] } });
      }
    };
  }
  const ID = 'events/unsubscribe-stops-events';
  const caps = ['/app/vscode/events/subscribe', '/app/vscode/events/unsubscribe'];

  it('a server that stops at the answer passes; one sending a queued event after it, or going on, fails', async () => {
    const [stops, queued, goesOn] = await Promise.all([
      verdicts([ID], caps, pusher('stop'), [FILES]),
      verdicts([ID], caps, pusher('one queued'), [FILES]),
      verdicts([ID], caps, pusher('keep on'), [FILES]),
    ]);
    expect(verdict(stops[ID]), details(stops[ID])).toBe('pass');
    expect(verdict(queued[ID])).toBe('fail: step[9] failed');
    expect(details(queued[ID])).toMatch(
      /^step\[9\]: expected no frame for \d+ ms \(4 × \d+ ms measured as eventMs, within 500–6000 ms\), got .*"event":"\/app\/vscode\/files\/changed"/,
    );
    expect(verdict(goesOn[ID])).toBe('fail: step[9] failed');
  }, 40_000);
});
