// `idea-spec diff` over the real history must report what shared/protocol/history.md says.

import { join } from 'node:path';
import { loadSpec as loadVersion } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../spec-tools/diff/types';
import { diffVersions } from '../../spec-tools/diff/version-diff';
import { REPO } from './scratch';

const SPEC = join(REPO, 'spec');
const diff = (a: string, b: string) => diffVersions(loadVersion(SPEC, a), loadVersion(SPEC, b)).changes;
const lines = (cs: Change[]) => cs.map((c) => `${c.level} ${c.kind} ${c.location}${c.path ? ` ${c.path}` : ''}`).sort();

describe('idea-spec diff over the real history', () => {
  it('0.1.5 → 0.1.6: three new topics, INFO, nothing else', () => {
    expect(lines(diff('0.1.5', '0.1.6'))).toEqual([
      'INFO topic-added topic /app/vscode/localhistory/diff',
      'INFO topic-added topic /app/vscode/localhistory/list',
      'INFO topic-added topic /app/vscode/localhistory/rollback',
    ]);
  });

  it('0.1.2 → 0.1.3: token (conditionally required: WARN), authRequired (INFO), UNAUTHORIZED and port auto-increment (WARN)', () => {
    expect(lines(diff('0.1.2', '0.1.3'))).toEqual([
      'INFO field-added handshake response authRequired',
      'WARN error-code-added error codes UNAUTHORIZED',
      'WARN param-conditionally-required-added handshake request token',
      'WARN port-attempts-changed transport portAttempts',
    ]);
  });

  it('0.1.0 → 0.1.6: nine new topics, relative paths, auth, ports; nothing breaking', () => {
    const cs = diff('0.1.0', '0.1.6');
    expect(cs.filter((c) => c.level === 'ERR')).toEqual([]);
    expect(
      cs
        .filter((c) => c.kind === 'topic-added')
        .map((c) => c.location)
        .sort(),
    ).toEqual([
      'topic /app/vscode/diag/list',
      'topic /app/vscode/fs/findFiles',
      'topic /app/vscode/history/diff',
      'topic /app/vscode/history/list',
      'topic /app/vscode/history/rollback',
      'topic /app/vscode/localhistory/diff',
      'topic /app/vscode/localhistory/list',
      'topic /app/vscode/localhistory/rollback',
      'topic /app/vscode/nav/symbols',
    ]);
    expect(lines(cs.filter((c) => c.kind !== 'topic-added'))).toEqual([
      'INFO constraint-removed $defs/FilePath',
      'INFO field-added handshake response authRequired',
      'WARN error-code-added error codes UNAUTHORIZED',
      'WARN param-conditionally-required-added handshake request token',
      'WARN port-attempts-changed transport portAttempts',
    ]);
  });

  it('0.1.0 → 0.1.1 has no wire change; 0.1.1 → 0.1.2 adds diag/list, nav/symbols and relative paths', () => {
    expect(diff('0.1.0', '0.1.1')).toEqual([]);
    const cs = diff('0.1.1', '0.1.2');
    expect(lines(cs)).toEqual([
      'INFO constraint-removed $defs/FilePath',
      'INFO topic-added topic /app/vscode/diag/list',
      'INFO topic-added topic /app/vscode/nav/symbols',
    ]);
    // One change of the FilePath $def, listed once with the two params it reaches.
    expect(
      cs.find((c) => c.location === '$defs/FilePath')?.uses?.map((u) => `${u.level} ${u.location} ${u.path}`),
    ).toEqual([
      'INFO topic /app/vscode/nav/definition params filePath',
      'INFO topic /app/vscode/nav/references params filePath',
    ]);
  });

  it('0.1.4 → 0.1.5 lifts the history/diff index restriction (INFO for the server accepts more)', () => {
    expect(lines(diff('0.1.4', '0.1.5'))).toEqual([
      'INFO constraint-removed topic /app/vscode/history/diff params',
      'INFO topic-added topic /app/vscode/history/rollback',
    ]);
  });

  it('going back in time is breaking: 0.1.6 → 0.1.0 removes topics and tightens paths (ERR, once for the FilePath $def)', () => {
    const errs = lines(diff('0.1.6', '0.1.0').filter((c) => c.level === 'ERR'));
    expect(errs).toContain('ERR topic-removed topic /app/vscode/localhistory/list');
    expect(errs).toContain('ERR constraint-added $defs/FilePath');
    expect(errs).toContain('ERR field-removed handshake response authRequired');
    expect(errs).toHaveLength(11);
  });
});
