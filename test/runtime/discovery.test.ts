// Discovery: the settings keys existing IDEA clients read, validated once for everyone (the live
// host's ready signal, the conformance CLI). The order of sources is runtime/locate.ts's (locate.test.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DISCOVERY_KEYS,
  parseDiscoveryKeys,
  workspaceSettingsFile,
  workspaceSettingsSource,
} from '../../runtime/discovery';

const tmp = mkdtempSync(join(tmpdir(), 'idea-discovery-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function workspace(name: string, settings?: string): string {
  const ws = join(tmp, name);
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  if (settings !== undefined) writeFileSync(workspaceSettingsFile(ws), settings);
  return ws;
}

describe('parseDiscoveryKeys', () => {
  it('reads the two keys existing clients use, from JSON with comments', () => {
    expect(DISCOVERY_KEYS).toEqual({ port: 'idea.server.port', token: 'idea.server.authToken' });
    expect(
      parseDiscoveryKeys('{ // written by the extension\n "idea.server.port": 7201, "idea.server.authToken": "t", }'),
    ).toEqual({ port: 7201, token: 't' });
  });

  it.each([
    ['a port out of range', '{"idea.server.port": 70000}'],
    ['a port that is not an integer', '{"idea.server.port": 7200.5}'],
    ['a port given as a string', '{"idea.server.port": "7200"}'],
    ['port 0', '{"idea.server.port": 0}'],
  ])('drops %s', (_w, text) => {
    expect(parseDiscoveryKeys(text).port).toBeUndefined();
  });

  it('drops an empty or non-string token, keeps the port', () => {
    expect(parseDiscoveryKeys('{"idea.server.port": 7200, "idea.server.authToken": ""}')).toEqual({ port: 7200 });
    expect(parseDiscoveryKeys('{"idea.server.port": 7200, "idea.server.authToken": 5}')).toEqual({ port: 7200 });
  });

  it('throws on a half-written or non-object file', () => {
    expect(() => parseDiscoveryKeys('{"idea.server.port": 72')).toThrow();
    expect(() => parseDiscoveryKeys('[7200]')).toThrow(/not a JSON object/);
  });
});

describe('sources', () => {
  it('the workspace settings source finds port, url and token; without a valid port, nothing', () => {
    const ws = workspace('a', '{"idea.server.port": 7203, "idea.server.authToken": "tok"}');
    expect(workspaceSettingsSource.find(ws)).toEqual({
      source: 'workspace settings',
      port: 7203,
      url: 'ws://127.0.0.1:7203',
      token: 'tok',
    });
    expect(workspaceSettingsSource.find(workspace('b', '{"idea.server.authToken": "tok"}'))).toBeUndefined();
    expect(workspaceSettingsSource.find(workspace('c'))).toBeUndefined();
    expect(workspaceSettingsSource.find(workspace('d', '{"idea.server.port": 7203'))).toBeUndefined();
  });

  it('a token-less entry (exposeToken off) is still a server', () => {
    expect(workspaceSettingsSource.find(workspace('e', '{"idea.server.port": 7204}'))).toEqual({
      source: 'workspace settings',
      port: 7204,
      url: 'ws://127.0.0.1:7204',
    });
  });
});
