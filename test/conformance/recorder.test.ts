import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { compareVersions, laterVersion } from '@idea-kit/spec-lib/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clauseSince } from '../../conformance/lib/clauses';
import { Connection } from '../../conformance/lib/connection';
import { loadCases } from '../../conformance/lib/load';
import { runAgainstServer } from '../../conformance/lib/session';
import { topicSince } from '../../conformance/lib/topics';
import { generalize } from '../../conformance/recorder/generalize';
import { startRecorder, writeTopics } from '../../conformance/recorder/proxy';
import { buildFixtureWorkspace, type FixtureWorkspaceInfo } from '../../conformance/workspace';
import { SERVER_PROTOCOL as V017 } from '../../generated/v0.1.7/server';
import { createIdeaServer } from '../../runtime/idea-server';
import { startInTestServer, TEST_TOKEN } from './in-test-server';

let tmp: string;
let info: FixtureWorkspaceInfo;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'recorder-'));
  info = buildFixtureWorkspace(join(tmp, 'ws'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const frame = async (c: Connection) => {
  const got = await c.next(5000);
  if (got?.kind !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(got)}`);
  return JSON.parse(got.text) as Record<string, unknown>;
};

describe('recorder', () => {
  it('forwards frames unchanged, writes generalized cases without the token, and the cases replay green', async () => {
    const server = await startInTestServer(info.dir);
    const out = join(tmp, 'recorded');
    const hashes = new Map(Object.entries(info.commits).map(([n, h]) => [h, `commit.${n}`]));
    const skipped: string[] = [];
    const rec = await startRecorder({
      upstream: server.url,
      workspace: info.dir,
      outDir: out,
      hashes,
      onSkip: (w) => skipped.push(w),
    });
    try {
      const direct = await Connection.open(server.url);
      const via = await Connection.open(rec.url);
      for (const c of [direct, via]) c.send({ type: 'handshake', token: TEST_TOKEN });
      expect(await frame(via)).toEqual(await frame(direct));
      const reqs = [
        { topic: '/app/vscode/history/list', requestId: 'r1', params: { filePath: 'src/shapes.ts', maxCount: 2 } },
        { topic: '/app/vscode/fs/findFiles', requestId: 'r2', params: { query: 'journal' } },
        { topic: '/app/vscode/history/list', requestId: 'r3', params: { filePath: '/etc/passwd' } },
        { topic: '/app/vscode/nav/typo', requestId: 'r4', params: {} }, // UNKNOWN_TOPIC: forwarded, not recorded
      ];
      for (const r of reqs) {
        direct.send(r);
        via.send(r);
        expect(await frame(via)).toEqual(await frame(direct));
      }
      await Promise.all([direct.close(), via.close()]);
      // a refused handshake: the close code travels through the proxy
      const bad = await Connection.open(rec.url);
      bad.send({ type: 'handshake', token: 'wrong' });
      expect((await frame(bad)).error).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(await bad.next(5000)).toMatchObject({ kind: 'close', code: 1008 });
    } finally {
      await rec.close();
    }
    expect(rec.written).toHaveLength(3);
    expect(skipped).toEqual([expect.stringMatching(/^not recorded: UNKNOWN_TOPIC for \/app\/vscode\/nav\/typo/)]);
    const texts = rec.written.map((f) => readFileSync(f, 'utf8'));
    const docs = rec.written.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>);
    for (const [k, d] of docs.entries()) {
      expect(existsSync(resolve(dirname(rec.written[k]!), d.$schema as string)), d.$schema as string).toBe(true);
      expect(d.workspace).toBe('any'); // read-only topics
    }
    expect(docs.map((d) => d.spec)).toEqual(['T18', 'T21', 'T10']);
    expect((docs[1]!.expect as { result: { files: unknown } }).result.files).toMatchObject({
      $unordered: [{ fileName: 'journal.md' }],
    });
    expect(Array.isArray((docs[0]!.expect as { result: { entries: unknown } }).result.entries)).toBe(true); // newest first: stays ordered
    for (const t of texts) {
      expect(t).not.toContain(TEST_TOKEN);
      expect(t).not.toContain(info.dir);
    }
    expect(texts[0]).toContain('"hash": "${commit.docs}"');
    expect(texts[0]).toContain('"shortHash": "${short.scale}"');
    expect(texts[1]).toContain('"filePath": "${workspace}/notes/journal.md"');
    expect(texts[2]).toContain('"code": "INVALID_REQUEST"');
    expect(readdirSync(out).sort()).toEqual(['fs-findfiles', 'history-list']);
    // The recorded cases are valid fixtures and pass when replayed.
    const recorded = loadCases(out);
    const s = await runAgainstServer({ url: server.url, token: TEST_TOKEN, workspace: info.dir, cases: recorded });
    expect(s.results.map((r) => `${r.id} ${r.verdict}`)).toEqual(recorded.map((c) => `${c.case.id} pass`));
    await server.close();
  });

  it('marks the cases of every topic that writes the workspace destructive, rename included', async () => {
    const writes = [...(await writeTopics())].sort();
    expect(writes).toEqual([
      '/app/vscode/edit/apply',
      '/app/vscode/edit/applyCodeAction',
      '/app/vscode/edit/format',
      '/app/vscode/edit/rename',
      '/app/vscode/edit/replace',
      '/app/vscode/edit/undo',
      '/app/vscode/fs/move',
      '/app/vscode/history/rollback',
      '/app/vscode/localhistory/rollback',
    ]);
  });

  it('replaces volatile values by match rules', () => {
    const ctx = { workspace: '/w', hashes: new Map([['a'.repeat(40), 'commit.docs']]), token: 'tok-123' };
    expect(
      generalize(
        {
          hash: 'a'.repeat(40),
          other: 'b'.repeat(40),
          timestamp: 1767225600000,
          timestampLabel: '2026-01-01 00:00:00',
          id: 'AbCd.md',
          path: '/w/x y.ts',
          authorDate: '2026-01-10T14:00:00+00:00',
          note: 'has tok-123 inside',
        },
        ctx,
      ),
    ).toEqual({
      hash: '${commit.docs}',
      other: { $match: '^[0-9a-f]{40}$' },
      timestamp: { $type: 'integer' },
      timestampLabel: { $match: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' },
      id: { $type: 'string' },
      path: '${workspace}/x y.ts',
      authorDate: { $match: '^2026-01-10T14:00:00' },
      note: 'has ${token} inside',
    });
  });

  it('records a subscription as an exchange case with the events pushed, which replays green', async () => {
    const FILES = '/app/vscode/files/changed';
    const journal = join(info.dir, 'notes', 'journal.md');
    // A v0.1.7 server whose edit/replace reports the file it "wrote" as a files/changed event.
    const server = await createIdeaServer({
      protocol: V017,
      port: 0,
      auth: { required: false },
      handlers: () => ({
        fsFindFiles: async () => ({ files: [], totalCount: 0 }),
        editReplace: async () => {
          setTimeout(() => server.emit(FILES, { changes: [{ filePath: journal, change: 'changed' }] }), 20);
          return { replacedCount: 1, affectedFiles: [journal] };
        },
      }),
      workspaces: () => [info.dir],
      session: { events: [FILES] },
    });
    const out = join(tmp, 'recorded-events');
    const rec = await startRecorder({ upstream: server.url, workspace: info.dir, outDir: out });
    try {
      const via = await Connection.open(rec.url);
      via.send({ type: 'handshake' });
      expect(await frame(via)).toMatchObject({ type: 'handshake', events: [FILES] });
      // Before the subscription: a request case as ever.
      via.send({ topic: '/app/vscode/fs/findFiles', requestId: 'before', params: { query: 'journal' } });
      expect(await frame(via)).toMatchObject({ requestId: 'before' });
      via.send({ topic: '/app/vscode/events/subscribe', requestId: 'sub', params: { events: [FILES] } });
      expect(await frame(via)).toMatchObject({ requestId: 'sub', result: { subscribed: [FILES] } });
      via.send({
        topic: '/app/vscode/edit/replace',
        requestId: 'rep',
        params: { pattern: 'draft-0', replacement: 'draft-1', include: 'notes/**' },
      });
      const got = [await frame(via), await frame(via)];
      expect(got).toContainEqual(expect.objectContaining({ requestId: 'rep' }));
      expect(got).toContainEqual(expect.objectContaining({ type: 'event', event: FILES }));
      await via.close();
    } finally {
      await rec.close();
    }
    expect(rec.written.map((f) => f.slice(out.length + 1))).toEqual([
      join('fs-findfiles', 'recorded-001.json'),
      join('events', 'recorded-002.json'),
    ]);
    const text = readFileSync(rec.written[1]!, 'utf8');
    expect(text).not.toContain(info.dir);
    expect(JSON.parse(text)).toMatchObject({
      id: 'events/recorded-002',
      spec: 'T31',
      since: '0.1.7',
      workspace: 'fresh',
      destructive: true,
      kind: 'exchange',
      handshake: 'auto',
      topic: '/app/vscode/events/subscribe',
      events: [FILES],
      steps: [
        { send: { topic: '/app/vscode/events/subscribe', requestId: 'sub', params: { events: [FILES] } } },
        {
          expect: {
            topic: '/app/vscode/events/subscribe',
            requestId: 'sub',
            result: { subscribed: { $unordered: [FILES] } },
          },
        },
        { send: { topic: '/app/vscode/edit/replace', requestId: 'rep' } },
        {
          expectUnordered: expect.arrayContaining([
            {
              type: 'event',
              event: FILES,
              requestId: { $absent: true },
              topic: { $absent: true },
              data: { changes: { $unordered: [{ filePath: '${workspace}/notes/journal.md', change: 'changed' }] } },
            },
          ]),
        },
      ],
    });
    // Replayed against the same server, the exchange case passes (and so does the request case).
    const recorded = loadCases(out);
    const s = await runAgainstServer({ url: server.url, workspace: info.dir, cases: recorded });
    expect(s.results.map((r) => `${r.id} ${r.verdict}${r.reason ? `: ${r.reason}` : ''}`)).toEqual(
      recorded.map((c) => `${c.case.id} pass`),
    );
    await server.close();
  });

  it('dates a recorded case from the version given, never before its clause and its topic (both from the spec)', async () => {
    await expect(
      startRecorder({ upstream: 'ws://127.0.0.1:1', workspace: info.dir, outDir: join(tmp, 'never'), since: 'latest' }),
    ).rejects.toThrow('since: not a protocol version: "latest"');
    const FIND = '/app/vscode/fs/findFiles';
    const server = await createIdeaServer({
      protocol: V017,
      port: 0,
      auth: { required: false },
      handlers: () => ({ fsFindFiles: async () => ({ files: [], totalCount: 0 }) }),
      workspaces: () => [info.dir],
    });
    const out = join(tmp, 'recorded-since');
    const rec = await startRecorder({ upstream: server.url, workspace: info.dir, outDir: out, since: '0.1.0' });
    try {
      const via = await Connection.open(rec.url);
      via.send({ type: 'handshake' });
      expect(await frame(via)).toMatchObject({ type: 'handshake' });
      via.send({ topic: FIND, requestId: 'q', params: { query: 'x' } });
      expect(await frame(via)).toMatchObject({ requestId: 'q' });
      await via.close();
    } finally {
      await rec.close();
      await server.close();
    }
    const [recorded] = loadCases(out);
    const floor = laterVersion(clauseSince(recorded!.clause.id), topicSince(FIND)!);
    expect(compareVersions(floor, '0.1.0')).toBeGreaterThan(0); // fs/findFiles came later than 0.1.0
    expect(recorded!.case.since).toBe(floor);
  });
});
