// The exchange steps v0.1.7's event and cancel cases need, against scripted servers (scripted-server.ts):
// `await` (skips unrelated events, keeps them for later awaits, says what it skipped), `expectOneOf`
// (branches), the runner writing, deleting and reading workspace files as another process (confined to
// the workspace, following no symlink), the T37 view oracle wired into every case, and the draft-claim
// transport action (T34).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases, parseCase } from '../../conformance/lib/load';
import { type KnownReleases, releaseStatus } from '../../conformance/lib/releases';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import type { CaseResult } from '../../conformance/lib/types';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { error, result, type ScriptOptions, startScriptedServer } from './scripted-server';

const FILES = '/app/vscode/files/changed';
const DIAG = '/app/vscode/diagnostics/changed';
const FIND_FILES = '/app/vscode/fs/findFiles';
const SUB = '/app/vscode/events/subscribe';

let tmp: string;
let ws: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-steps-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Script = Omit<ScriptOptions, 'workspaces' | 'capabilities'> & { capabilities?: string[] };

/** Runs ad-hoc exchange cases (area `events`) against a scripted server; the results by case id. */
async function run(script: Script, ...cases: object[]): Promise<Record<string, CaseResult>> {
  const server = await startScriptedServer({
    capabilities: [FIND_FILES, SUB, '/app/vscode/events/unsubscribe'],
    events: [FILES, DIAG],
    workspaces: [ws],
    ...script,
  });
  try {
    const loaded = cases.map((c, i) =>
      parseCase(
        JSON.stringify({
          id: `events/step-${i}`,
          description: 'x',
          spec: 'T31',
          since: '0.1.7',
          workspace: 'fresh',
          destructive: true,
          kind: 'exchange',
          handshake: 'auto',
          timeoutMs: 2000,
          ...c,
        }),
        `events/step-${i}.json`,
      ),
    );
    const s = await runAgainstServer({
      url: server.url,
      token: 'scripted',
      workspace: ws,
      cases: loaded,
      settleTimeoutMs: 0,
    });
    return Object.fromEntries(s.results.map((r) => [r.id, r]));
  } finally {
    await server.close();
  }
}

const failed = (r: CaseResult | undefined) =>
  (r?.checks ?? [])
    .filter((c) => !c.ok)
    .map((c) => `${c.name}: ${c.detail ?? ''}`)
    .join('\n');

const fileEvent = (path: string, change = 'changed') => ({
  type: 'event',
  event: FILES,
  data: { changes: [{ filePath: join(ws, path), change }] },
});
const subscribeSteps = (events = [FILES], initial?: boolean) => [
  { send: { topic: SUB, requestId: 'sub', params: { events, ...(initial === undefined ? {} : { initial }) } } },
  { expect: { topic: SUB, requestId: 'sub', result: { subscribed: events } } },
];
const search = (id: string) => ({ send: { topic: FIND_FILES, requestId: id, params: { query: 'x' } } });
const found = (id: string) => ({ topic: FIND_FILES, requestId: id, result: { totalCount: 0 } });

/** Answers subscribes; a search is answered after two file events (so events come before the answer). */
const eventsBeforeAnswers: Script = {
  onFrame(f, c) {
    if (f.topic === SUB) c.send(result(f, { subscribed: (f.params?.events as string[]) ?? [] }));
    else if (f.topic === FIND_FILES) {
      c.send(fileEvent('a.txt'));
      c.send(fileEvent('b.txt', 'created'));
      c.send(result(f, { files: [], totalCount: 0 }));
    }
  },
};

describe('await', () => {
  it('skips events that do not match and keeps them: an event that came before the answer is found after it', async () => {
    const r = await run(eventsBeforeAnswers, {
      steps: [
        ...subscribeSteps(),
        search('q'),
        { await: found('q') },
        { await: { type: 'event', data: { changes: [{ filePath: '${workspace}/b.txt', change: 'created' }] } } },
        { await: { type: 'event', data: { changes: [{ filePath: '${workspace}/a.txt' }] } }, withinMs: 100 },
        { expectSilence: 200 },
      ],
    });
    expect(failed(r['events/step-0'])).toBe('');
    expect(r['events/step-0']!.verdict).toBe('pass');
  });

  it('fails when nothing matches in time, saying what it skipped (kept from earlier steps too)', async () => {
    const r = await run(eventsBeforeAnswers, {
      steps: [
        ...subscribeSteps(),
        search('q'),
        { await: found('q') },
        { await: { type: 'event', data: { changes: [{ filePath: '${workspace}/c.txt' }] } }, withinMs: 300 },
        { expectSilence: 100 },
      ],
    });
    const res = r['events/step-0']!;
    expect(res.verdict).toBe('fail');
    expect(res.reason).toBe('step[4] failed');
    const d = failed(res);
    expect(d).toContain(
      'within 300 ms: nothing arrived before the timeout; skipped 2 events that did not match (2 kept from earlier steps)',
    );
    expect(d).toContain(`"filePath":"${join(ws, 'a.txt')}"`);
    expect(d).toContain('the last one against what was awaited');
    // The case ended there: the later step did not run.
    expect(res.checks.map((c) => c.name)).not.toContain('step[5]');
  });

  it('fails on a frame that is not an event and does not match, naming the events it skipped before it', async () => {
    const r = await run(eventsBeforeAnswers, {
      steps: [...subscribeSteps(), search('q'), { await: found('other') }],
    });
    const res = r['events/step-0']!;
    expect(res.verdict).toBe('fail');
    expect(failed(res)).toMatch(
      /a frame that is not an event and does not match what was awaited:[\s\S]*-\s+"requestId": "other"[\s\S]*skipped 2 events/,
    );
  });

  it('binds from the frame it matched', async () => {
    const r = await run(eventsBeforeAnswers, {
      steps: [
        ...subscribeSteps(),
        search('q'),
        { await: { type: 'event', event: FILES }, bind: { first: '$.data.changes[0].filePath' } },
        { await: { type: 'event', data: { changes: [{ filePath: { $match: '/b\\.txt$' } }] } } },
        { await: found('q') },
        search('r'),
        { await: { type: 'event', data: { changes: [{ filePath: '${first}' }] } } },
      ],
    });
    expect(failed(r['events/step-0'])).toBe('');
  });
});

describe('expectOneOf', () => {
  const cancelledOrNot: Script = {
    onFrame(f, c) {
      if (f.topic !== FIND_FILES) return;
      if (f.requestId === 'cancel-me') c.send(error(f, 'CANCELLED'));
      else c.send(error(f, 'HANDLER_ERROR'));
    },
  };
  const alternatives = (id: string) => [
    {
      expect: { topic: FIND_FILES, requestId: id, error: { code: 'CANCELLED' } },
      then: [{ expectSilence: 100 }, search('after')],
    },
    { expect: found(id), then: [{ expectFiles: { 'no/such/file': 'x' } }] },
  ];

  it('runs the then steps of the alternative the frame matches, and only those', async () => {
    const r = await run(cancelledOrNot, {
      steps: [
        search('cancel-me'),
        { expectOneOf: alternatives('cancel-me') },
        { expect: { requestId: 'after', error: { code: 'HANDLER_ERROR' } } },
      ],
    });
    const res = r['events/step-0']!;
    expect(failed(res)).toBe('');
    expect(res.checks.map((c) => c.name)).toEqual(['step[1] (alternative 1)', 'step[1].then[0]', 'step[2]', 'schema']);
  });

  it('fails on a frame matching none, with a diff against each alternative', async () => {
    const r = await run(cancelledOrNot, { steps: [search('q'), { expectOneOf: alternatives('q') }] });
    const d = failed(r['events/step-0']);
    expect(r['events/step-0']!.verdict).toBe('fail');
    expect(d).toMatch(
      /^step\[1\]: the frame matches none of the 2 alternatives:\nalternative 1:\n[\s\S]*"code": "CANCELLED"[\s\S]*\nalternative 2:\n/,
    );
  });

  it('the topics its alternatives send are needed by the case (unimplemented where not advertised)', async () => {
    const lc = parseCase(
      JSON.stringify({
        id: 'events/nested',
        description: 'x',
        spec: 'T41',
        since: '0.1.7',
        kind: 'exchange',
        handshake: 'auto',
        steps: [
          { send: { topic: FIND_FILES, requestId: 'a', params: {} } },
          {
            expectOneOf: [
              { expect: {}, then: [{ send: { topic: '/app/vscode/edit/find', requestId: 'b', params: {} } }] },
              { expect: {} },
            ],
          },
        ],
      }),
      'events/nested.json',
    );
    expect(lc.needs.sort()).toEqual(['/app/vscode/edit/find', FIND_FILES]);
  });
});

describe('the runner as another process: writeFile, deleteFile, expectFiles, expectFilesUnchanged', () => {
  /** On `touch`, the server itself changes notes/journal.md (what a cancelled write must not do). */
  const writesOnTouch: Script = {
    onFrame(f, c) {
      if (f.topic !== FIND_FILES) return;
      if (f.requestId === 'touch') writeFileSync(join(ws, 'notes/journal.md'), '# Journal\n\nstatus: touched\n');
      c.send(result(f, { files: [], totalCount: 0 }));
    },
  };

  it('writes, reads and deletes workspace files; unchanged files pass', async () => {
    const r = await run(writesOnTouch, {
      steps: [
        { writeFile: { path: 'probe/new folder/new.txt', content: 'in ${workspace}\n' } },
        {
          expectFiles: {
            'probe/new folder/new.txt': `in ${ws}\n`,
            'notes/journal.md': { $lines: ['status: draft-0'] },
          },
        },
        { writeFile: { path: 'probe/new folder/new.txt', content: 'again\n' } },
        { expectFiles: { 'probe/new folder/new.txt': 'again\n' } },
        { deleteFile: { path: 'probe/new folder/new.txt' } },
        { expectFiles: { 'probe/new folder/new.txt': { $absent: true } } },
        // An absolute path inside the workspace is the same file.
        { writeFile: { path: '${workspace}/probe/absolute.txt', content: 'a\n' } },
        { expectFiles: { 'probe/absolute.txt': 'a\n', '${workspace}/probe/absolute.txt': 'a\n' } },
        { deleteFile: { path: 'probe/absolute.txt' } },
        search('q'),
        { expect: found('q') },
        { expectFilesUnchanged: ['notes/journal.md', 'src/shapes.ts', 'probe/never-there.txt'] },
      ],
    });
    expect(failed(r['events/step-0'])).toBe('');
    expect(existsSync(join(ws, 'probe/new folder/new.txt'))).toBe(false);
  });

  it('a file changed since the case began fails expectFilesUnchanged with a diff; expectFiles shows the text', async () => {
    const r = await run(writesOnTouch, {
      steps: [
        search('touch'),
        { expect: found('touch') },
        { expectFilesUnchanged: ['notes/journal.md', 'src/main.ts'] },
        { expectFiles: { 'notes/journal.md': '# Journal\n\nstatus: draft-0\n' } },
      ],
    });
    const d = failed(r['events/step-0']);
    expect(d).toMatch(
      /^step\[2\]: changed since the case began:\n {2}• notes\/journal\.md: 27 bytes, sha256 [0-9a-f]{12} → 27 bytes, sha256 [0-9a-f]{12}\n--- notes\/journal\.md \(before\)\n\+\+\+ notes\/journal\.md \(now\)\n/,
    );
    expect(d).toContain('-status: draft-0\n+status: touched');
    expect(d).not.toContain('src/main.ts');
    expect(d).toMatch(/step\[3\]: [\s\S]*-\s+"notes\/journal\.md": "# Journal\\n\\nstatus: draft-0\\n"/);
    // The destructive case was reset afterwards.
    expect(readFileSync(join(ws, 'notes/journal.md'), 'utf8')).toBe('# Journal\n\nstatus: draft-0\n');
  });

  it('never outside the workspace nor through a symlinked folder: the case is an error, nothing outside touched', async () => {
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'victim.txt'), 'keep me\n');
    /** One case with a symlinked folder `linked` → outside planted first (the reset after each case removes it). */
    const withLink = async (steps: object[]) => {
      symlinkSync(outside, join(ws, 'linked'));
      try {
        return (await run(writesOnTouch, { steps }))['events/step-0']!;
      } finally {
        rmSync(join(ws, 'linked'), { recursive: true, force: true });
      }
    };
    const escaped = await withLink([{ writeFile: { path: '../outside/escaped.txt', content: 'x' } }]);
    expect(escaped.verdict).toBe('error');
    expect(escaped.reason).toMatch(
      /^step\[0\]: writeFile failed: cannot write \.\.\/outside\/escaped\.txt: not a path inside the workspace/,
    );
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    const deleted = await withLink([{ deleteFile: { path: 'linked/victim.txt' } }]);
    expect(deleted.verdict).toBe('error');
    expect(deleted.reason).toMatch(/cannot delete linked\/victim\.txt: .* is not a real folder \(a symbolic link\)/);
    const missing = await withLink([{ deleteFile: { path: 'probe/not-there.txt' } }]);
    expect(missing.reason).toMatch(/cannot delete probe\/not-there\.txt: .*no such file to delete/);
    // Read through the link: not the file outside, but what is there instead of a real folder.
    const read = await withLink([{ expectFiles: { 'linked/victim.txt': 'keep me\n' } }]);
    expect(read.verdict).toBe('fail');
    expect(failed(read)).toContain('is not a real folder (a symbolic link)');
    // A write replaces the link on the way by a real folder (the reset removes it), never writing outside.
    const written = await withLink([
      { writeFile: { path: 'linked/victim.txt', content: 'overwritten\n' } },
      { expectFiles: { 'linked/victim.txt': 'overwritten\n' } },
    ]);
    expect(failed(written)).toBe('');
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('keep me\n');
    expect(existsSync(join(ws, 'linked'))).toBe(false);
  });
});

describe('the T37 view oracle in every case', () => {
  const d = (line: number) => ({
    line,
    character: 0,
    endLine: line,
    endCharacter: 1,
    severity: 'error',
    message: 'm',
    source: 'ts',
    code: '1',
  });
  /** Subscribe answers, then (with initial) an initial event and, on a search, an event removing what it never had. */
  const inconsistent: Script = {
    onFrame(f, c) {
      if (f.topic === SUB) {
        c.send(result(f, { subscribed: [DIAG] }));
        if (f.params?.initial === true)
          c.send({
            type: 'event',
            event: DIAG,
            data: { files: [{ filePath: join(ws, 'src/a.ts'), added: [d(1)], removed: [], total: 1 }] },
          });
      } else if (f.topic === FIND_FILES) {
        c.send({
          type: 'event',
          event: DIAG,
          data: { files: [{ filePath: join(ws, 'src/a.ts'), added: [], removed: [d(2)], total: 0 }] },
        });
        c.send(result(f, { files: [], totalCount: 0 }));
      }
    },
  };
  const steps = (initial: boolean) => [...subscribeSteps([DIAG], initial), search('q'), { await: found('q') }];

  it('fails a case whose connection subscribed with initial: true and got an event contradicting the view, naming file and event', async () => {
    const r = await run(inconsistent, { steps: steps(true) });
    const res = r['events/step-0']!;
    expect(res.verdict).toBe('fail');
    expect(res.reason).toBe('diagnostics/changed view (T37) failed');
    const check = res.checks.find((c) => c.name === 'diagnostics/changed view (T37)')!;
    expect(check.clause).toBe('T37');
    expect(check.detail).toContain(
      `${join(ws, 'src/a.ts')}: diagnostics/changed event 2 after the subscribe answer (frame 4 received on connection 1): removed a diagnostic not in the subscriber's view (1 before this event)`,
    );
    expect(check.detail).toContain('total is 0, but the view after this event holds 1');
  });

  it('does not judge a subscription without initial (no check at all)', async () => {
    const r = await run(inconsistent, { steps: steps(false) });
    expect(r['events/step-0']!.verdict).toBe('pass');
    expect(r['events/step-0']!.checks.map((c) => c.name)).not.toContain('diagnostics/changed view (T37)');
  });
});

describe('draft-claim (T34)', () => {
  const all = loadCases();
  const draftCase = selectCases(all, { ids: ['protocol/handshake-draft'] });

  async function verdict(version: string, draft?: unknown, releases?: KnownReleases): Promise<string> {
    const server = await startScriptedServer({
      version,
      draft,
      capabilities: [FIND_FILES],
      workspaces: [ws],
      onFrame: () => undefined,
    });
    try {
      // Applied as 0.1.7 whatever the handshake announces, so that the case runs.
      const s = await runAgainstServer({
        url: server.url,
        token: 't',
        workspace: ws,
        cases: draftCase,
        assumeVersion: '0.1.7',
        releases,
      });
      const r = s.results[0]!;
      return `${r.verdict}${r.reason ? `: ${r.reason}` : ''}${failed(r) ? ` | ${failed(r)}` : ''}`;
    } finally {
      await server.close();
    }
  }

  it('releaseStatus: up to the newest released version released, then drafts up to the newest known, then unknown', () => {
    const known = { newestReleased: '0.1.6', newestKnown: '0.1.7' };
    expect(releaseStatus('0.1.0', known)).toBe('released');
    expect(releaseStatus('0.1.6', known)).toBe('released');
    expect(releaseStatus('0.1.7', known)).toBe('draft');
    expect(releaseStatus('0.1.10', known)).toBe('unknown');
    expect(releaseStatus('0.2.0', { newestReleased: '0.1.7', newestKnown: '0.1.7' })).toBe('unknown');
    expect(releaseStatus('0.1.7', { newestReleased: '0.1.7', newestKnown: '0.1.7' })).toBe('released');
    expect(releaseStatus('latest', known)).toBe('unknown');
  });

  it('a released version: no draft or draft: false passes, draft: true fails', async () => {
    expect(await verdict('0.1.6')).toBe('pass');
    expect(await verdict('0.1.6', false)).toBe('pass');
    expect(await verdict('0.1.6', true)).toMatch(
      /^fail: draft claim failed \| draft claim: the handshake announces 0\.1\.6, which is released \(the newest released version is \d+\.\d+\.\d+\), so it must have no draft or draft: false; it says draft: true$/,
    );
  });

  // A draft: the runner told that 0.1.7 is not released yet (as it was until today's release).
  it('a draft version: draft: true passes, none or anything else fails', async () => {
    const asDraft = { newestReleased: '0.1.6', newestKnown: '0.1.7' };
    expect(await verdict('0.1.7', true, asDraft)).toBe('pass');
    expect(await verdict('0.1.7', undefined, asDraft)).toMatch(
      /^fail: draft claim failed \| .*which is not released .* so it must say draft: true; it has no draft$/,
    );
    expect(await verdict('0.1.7', 'yes', asDraft)).toMatch(/it says draft: "yes"/);
  });

  it('a version this runner does not know, or none, skips: it cannot tell', async () => {
    expect(await verdict('9.9.9', true)).toMatch(
      /^skip: whether 9\.9\.9 is released this runner cannot tell .*: update idea-conformance$/,
    );
    expect(await verdict('latest')).toMatch(/^skip: the handshake's version "latest" is not a protocol version/);
  });
});

describe('expectSilence sized from what the case measured', () => {
  /** Answers a search after `answerMs`, then (a bug) once more after `lateMs` more. */
  const slowThenLate = (answerMs: number, lateMs: number | undefined): Script => ({
    onFrame(f, c) {
      if (f.topic !== FIND_FILES) return;
      setTimeout(() => {
        c.send(result(f, { files: [], totalCount: 0 }));
        if (lateMs !== undefined) setTimeout(() => c.send(result(f, { files: [], totalCount: 0 })), lateMs);
      }, answerMs);
    },
  });
  const sized = (factor: number) => ({
    steps: [
      search('q'),
      { expect: found('q'), measure: 'answerMs' },
      { expectSilence: { of: 'answerMs', factor, floorMs: 50, maxMs: 5_000 } },
    ],
  });

  it('waits factor times the measured latency: a frame inside that window fails, one after it does not', async () => {
    // Answered after ~150 ms; the stray second answer comes 300 ms later: inside 4 × 150, after 1 × 150.
    const inside = await run(slowThenLate(150, 300), sized(4));
    expect(inside['events/step-0']!.verdict).toBe('fail');
    expect(failed(inside['events/step-0'])).toMatch(
      /expected no frame for \d+ ms \(4 × 1[5-9]\d ms measured as answerMs, within 50–5000 ms\)/,
    );
    const after = await run(slowThenLate(150, 300), sized(1));
    expect(failed(after['events/step-0'])).toBe('');
  });

  it('a window is at least its floor and at most its max', async () => {
    const t0 = Date.now();
    const r = await run(slowThenLate(0, undefined), {
      steps: [
        search('q'),
        { expect: found('q'), measure: 'answerMs' },
        { expectSilence: { of: 'answerMs', factor: 2, floorMs: 400, maxMs: 500 } },
      ],
    });
    expect(failed(r['events/step-0'])).toBe('');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
  });

  it('a window sized from a measurement no step made makes the case an error naming it', async () => {
    const r = await run(slowThenLate(0, undefined), {
      steps: [search('q'), { expect: found('q') }, { expectSilence: { of: 'nothing', factor: 2, floorMs: 50 } }],
    });
    expect(r['events/step-0']!.verdict).toBe('error');
    expect(failed(r['events/step-0'])).toContain('expectSilence sized from "nothing", which no earlier step measured');
  });
});

describe('fixed waits in the fixtures', () => {
  it('every sleepMs and fixed expectSilence of every version says why nothing could be measured instead', () => {
    const unexplained: string[] = [];
    const walk = (v: unknown, where: string): void => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${where}[${i}]`);
      } else if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        const fixed = 'sleepMs' in o || typeof o.expectSilence === 'number';
        if (fixed && typeof o.why !== 'string') unexplained.push(where);
        for (const [k, x] of Object.entries(o)) walk(x, `${where}.${k}`);
      }
    };
    for (const dir of ['conformance/fixtures/v0.1.6', 'conformance/fixtures/v0.1.7'])
      for (const c of loadCases(join(process.cwd(), dir))) walk(c.case, c.case.id);
    expect(unexplained).toEqual([]);
  });
});
