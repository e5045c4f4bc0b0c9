// Conformance by version: a server that announces an older protocol version is held to THAT
// version's schemas. A real v0.1.2 server (the generated v0.1.2 ServerSession) has no token auth and
// its handshake carries no authRequired, which v0.1.6's handshake schema requires.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { frameCheckerFor } from '../../conformance/lib/schema-check';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { SERVER_PROTOCOL } from '../../generated/v0.1.2/server';
import { NEWEST_VERSION } from '../../generated/versions';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';

const V012_HANDSHAKE = JSON.stringify({
  type: 'handshake',
  version: '0.1.2',
  capabilities: ['/app/vscode/diag/list'],
  workspaces: ['/w'],
});

describe('frame schemas follow the server version', () => {
  it('a v0.1.2 handshake is valid for v0.1.2 and invalid for v0.1.6 (no authRequired)', async () => {
    expect((await frameCheckerFor('0.1.2')).check(V012_HANDSHAKE)).toBeNull();
    expect((await frameCheckerFor('0.1.6')).check(V012_HANDSHAKE)).toMatch(/authRequired/);
  });

  it('an unknown or malformed version falls back to the newest spec', async () => {
    expect((await frameCheckerFor('9.9.9')).version).toBe(NEWEST_VERSION);
    expect((await frameCheckerFor('../v0.1.2')).version).toBe(NEWEST_VERSION);
  });
});

describe('runner against a generated v0.1.2 server', () => {
  let tmp: string;
  let ws: string;
  let server: RunningIdeaServer;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'conformance-v012-'));
    ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
    server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: () => ({}),
      workspaces: () => [ws],
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('passes the protocol cases that apply to 0.1.2 and skips the token cases, schema checks included', async () => {
    const all = loadCases();
    const ids = [
      'protocol/unknown-topic',
      'protocol/json-null-frame',
      'protocol/missing-topic',
      'protocol/handshake-bad-token',
    ];
    const summary = await runAgainstServer({
      url: server.url,
      token: 'unused',
      workspace: ws,
      cases: selectCases(all, { ids }),
      allIds: new Set(all.map((c) => c.case.id)),
    });
    const verdicts = Object.fromEntries(summary.results.map((r) => [r.id, r.verdict]));
    const failures = summary.results
      .filter((r) => r.verdict === 'fail')
      .map((r) =>
        r.checks
          .filter((c) => !c.ok)
          .map((c) => `${r.id}: ${c.detail}`)
          .join('\n'),
      );
    expect(failures).toEqual([]);
    expect(verdicts).toEqual({
      'protocol/unknown-topic': 'pass',
      'protocol/json-null-frame': 'pass',
      'protocol/missing-topic': 'pass',
      'protocol/handshake-bad-token': 'skip', // since 0.1.3
    });
  });
});
