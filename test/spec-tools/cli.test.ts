// The idea-spec command line: exit codes (0 clean, 1 a change at --fail-on or a check failed,
// usage errors thrown for the wrapper to print with exit 2) and output formats.

import { join } from 'node:path';
import { newestRelease, readReleases } from '@idea-kit/spec-lib/releases';
import { specVersions } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { main } from '../../spec-tools/cli';
import { REPO } from './scratch';

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main([...args, '--root', REPO], (s) => {
    out += s;
  });
  return { code, out };
}

describe('idea-spec diff', () => {
  it('--fail-on decides the exit code', async () => {
    expect((await run('diff', '0.1.2', '0.1.3')).code).toBe(0);
    expect((await run('diff', '0.1.2', '0.1.3', '--fail-on', 'WARN')).code).toBe(1);
    expect((await run('diff', '0.1.5', '0.1.6', '--fail-on', 'warn')).code).toBe(0);
    expect((await run('diff', '0.1.5', '0.1.6', '--fail-on=INFO')).code).toBe(1);
    expect((await run('diff', 'v0.1.6', '0.1.5')).code).toBe(1);
  });

  it('prints text, markdown, json and junit', async () => {
    const text = (await run('diff', '0.1.2', '0.1.3')).out;
    expect(text.split('\n')[0]).toBe('idea-spec diff 0.1.2 → 0.1.3: 0 ERR, 3 WARN, 1 INFO');
    expect((await run('diff', '0.1.2', '0.1.3', '--format', 'markdown')).out).toContain('### Needs attention (WARN)');
    const json = JSON.parse((await run('diff', '0.1.2', '0.1.3', '--format', 'json')).out) as {
      from: string;
      to: string;
      summary: unknown;
      changes: unknown[];
    };
    expect([json.from, json.to, json.summary, json.changes.length]).toEqual([
      '0.1.2',
      '0.1.3',
      { ERR: 0, WARN: 3, INFO: 1 },
      4,
    ]);
    const junit = (await run('diff', '0.1.2', '0.1.3', '--format', 'junit', '--fail-on', 'WARN')).out;
    expect(junit).toMatch(/^<\?xml/);
    expect(junit.match(/<testcase /g)).toHaveLength(4);
    expect(junit.match(/<failure /g)).toHaveLength(3);
  });

  it('rejects bad arguments', async () => {
    await expect(run('diff', '0.1.2')).rejects.toThrow(/needs <from> <to>/);
    await expect(run('diff', '0.1.2', '0.1.3', '0.1.4')).rejects.toThrow(/needs <from> <to>/);
    await expect(run('diff', '0.1.2', '0.1.3', '--format', 'html')).rejects.toThrow(/--format/);
    await expect(run('diff', '0.1.2', '0.1.3', '--fail-on', 'FATAL')).rejects.toThrow(/--fail-on/);
    await expect(run('diff', '0.1.2', '9.9.9')).rejects.toThrow(/no spec for version 9\.9\.9/);
    await expect(run('diff', '0.1.2', '../../etc')).rejects.toThrow(/not a protocol version/);
    await expect(run('frobnicate')).rejects.toThrow(/unknown command/);
  });

  it('without versions compares the newest released version with the newest version', async () => {
    const { out } = await run('diff', '--format', 'json');
    const r = JSON.parse(out) as { from: string; to: string };
    expect(r.from).toBe(newestRelease(readReleases(join(REPO, 'spec'))));
    expect(r.to).toBe(specVersions(join(REPO, 'spec')).at(-1));
  });
});

describe('idea-spec checks on the repository', () => {
  it('check-frozen and changelog --check pass', async () => {
    expect(await run('check-frozen')).toEqual({
      code: 0,
      out: expect.stringMatching(
        /^spec\/releases\.json history: (\d+ committed version\(s\) checked|check skipped \(.*\))\nreleased versions unchanged\n$/,
      ),
    });
    expect((await run('changelog', '--check')).code).toBe(0);
  });
});
