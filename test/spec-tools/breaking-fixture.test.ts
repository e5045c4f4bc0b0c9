// A deliberately breaking v0.1.7 (test/spec-tools/fixtures/breaking-v0.1.7, laid over a bumped copy
// of v0.1.6) must be caught at ERR, and the CLI must fail on it in every output format.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseOf } from '@idea-kit/spec-lib/releases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bump } from '../../spec-tools/bump';
import { main } from '../../spec-tools/cli';
import { writeReleases } from '../../spec-tools/frozen';
import { FIXTURES, REPO, scratchRepo } from './scratch';

/** A scratch repository holding spec/v0.1.6 alone, recorded as released (the rule bump follows). */
function scratchWithV016(paths: string[]): ReturnType<typeof scratchRepo> {
  const s = scratchRepo(paths);
  writeReleases(join(s.root, 'spec'), { description: '', releases: [releaseOf(join(REPO, 'spec'), '0.1.6')!] });
  return s;
}

let scratch: ReturnType<typeof scratchRepo>;

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main([...args, '--root', scratch.root], (s) => {
    out += s;
  });
  return { code, out };
}

beforeAll(async () => {
  scratch = scratchWithV016(['spec/v0.1.6', 'spec/index.schema.json']);
  await bump(scratch.root, { version: '0.1.7', codegen: false });
  cpSync(join(FIXTURES, 'breaking-v0.1.7'), join(scratch.root, 'spec', 'v0.1.7'), { recursive: true });
});
afterAll(() => scratch.dispose());

describe('a breaking edit in a fixture version', () => {
  it('is reported at ERR, each edit where it was made', async () => {
    const { code, out } = await run(['diff', '0.1.6', '0.1.7', '--format', 'json']);
    expect(code).toBe(1);
    type Use = { level: string; location: string; path: string };
    const report = JSON.parse(out) as {
      changes: { level: string; kind: string; location: string; path: string; uses?: Use[] }[];
      summary: { ERR: number };
    };
    const errs = report.changes.filter((c) => c.level === 'ERR').map((c) => `${c.kind} ${c.location} ${c.path}`);
    expect(errs.sort()).toEqual([
      'bound-tightened topic /app/vscode/edit/find params pattern',
      'enum-value-added $defs/Severity ',
      'field-made-optional topic /app/vscode/nav/references result totalCount',
      'param-required-added topic /app/vscode/edit/find params scope',
      'topic-removed topic /app/vscode/nav/symbols ',
    ]);
    expect(report.summary.ERR).toBe(5);
    expect(report.changes).toHaveLength(5);
    // Severity gained a value: reported once, under the $def, with the result field that uses it.
    const severity = report.changes.find((c) => c.location === '$defs/Severity');
    expect(severity?.uses?.map((u) => `${u.level} ${u.location} ${u.path}`)).toEqual([
      'ERR topic /app/vscode/diag/list result diagnostics[].severity',
    ]);
    // SeverityFilter (params) did not change: diag/list params are untouched.
    expect(report.changes.filter((c) => c.location === 'topic /app/vscode/diag/list params')).toEqual([]);
  });

  it('fails the run at --fail-on ERR in text, markdown and junit too', async () => {
    const text = await run(['diff', '0.1.6', '0.1.7']);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^ERR +topic \/app\/vscode\/edit\/find params › scope: new required field/m);
    const md = await run(['diff', '0.1.6', '0.1.7', '--format', 'markdown']);
    expect(md.out).toContain('### Breaking (ERR)');
    const junit = await run(['diff', '0.1.6', '0.1.7', '--format', 'junit']);
    expect(junit.code).toBe(1);
    expect(junit.out).toMatch(/<testsuites [^>]*failures="[1-9]\d*"/);
    expect(junit.out).toContain('<failure type="ERR"');
  });

  it('the unchanged copy before the edit diffs clean, so only the edit is reported', async () => {
    const clean = scratchWithV016(['spec/v0.1.6']);
    try {
      await bump(clean.root, { version: '0.1.7', codegen: false });
      let out = '';
      const code = await main(['diff', '0.1.6', '0.1.7', '--root', clean.root, '--fail-on', 'INFO'], (s) => {
        out += s;
      });
      expect(out).toContain('0 ERR, 0 WARN, 0 INFO');
      expect(code).toBe(0);
      const index = JSON.parse(readFileSync(join(clean.root, 'spec', 'v0.1.7', 'index.json'), 'utf8')) as {
        version: string;
      };
      expect(index.version).toBe('0.1.7');
    } finally {
      clean.dispose();
    }
  });
});
