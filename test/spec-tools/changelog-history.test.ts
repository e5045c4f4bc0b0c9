// docs/CHANGELOG.md is generated from the spec (drift check), and the committed history folders are
// exactly what spec-tools/history derives from v0.1.6 and the changelog facts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseOf } from '@idea-kit/spec-lib/releases';
import { formatJson, listFiles, loadSpec as loadVersion, readJson } from '@idea-kit/spec-lib/spec';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { renderChangelog } from '../../spec-tools/changelog';
import { deriveVersion } from '../../spec-tools/history/derive';
import { HISTORY, HISTORY_BASE } from '../../spec-tools/history/facts';
import { REPO } from './scratch';

const SPEC = join(REPO, 'spec');

describe('docs/CHANGELOG.md', () => {
  it('is up to date with the spec (run: npx tsx spec-tools/cli.ts changelog)', () => {
    expect(readFileSync(join(REPO, 'docs', 'CHANGELOG.md'), 'utf8')).toBe(renderChangelog(REPO));
  });

  it('has a section per version, newest first, with the history facts', () => {
    const text = renderChangelog(REPO);
    const heads = [...text.matchAll(/^## (\d+\.\d+\.\d+) — /gm)].map((m) => m[1]);
    expect(heads.slice(-7)).toEqual(['0.1.6', '0.1.5', '0.1.4', '0.1.3', '0.1.2', '0.1.1', '0.1.0']);
    const v013 = text.slice(text.indexOf('## 0.1.3'), text.indexOf('## 0.1.2'));
    expect(v013).toContain('UNAUTHORIZED');
    expect(v013).toContain('`token`');
    expect(v013).toContain('`authRequired`');
    expect(text.slice(text.indexOf('## 0.1.1'), text.indexOf('## 0.1.0'))).toContain('No wire changes.');
  });
});

describe('reconstructed history (spec/v0.1.0 … v0.1.5)', () => {
  const base = loadVersion(SPEC, HISTORY_BASE);
  const older = HISTORY.filter((f) => f.version !== HISTORY_BASE);

  it.each(older.map((f) => [f.version, f] as const))('v%s is what the derivation produces', (v, facts) => {
    const derived = deriveVersion(base, facts, releaseOf(SPEC, v)!.released);
    const dir = join(SPEC, `v${v}`);
    expect(listFiles(dir)).toEqual([...derived.keys()].sort());
    for (const [rel, doc] of derived) expect(readFileSync(join(dir, rel), 'utf8'), rel).toBe(formatJson(doc));
  });

  it('topics, ports and auth per version follow history.md', () => {
    const facts = older.map((f) => {
      const s = loadVersion(SPEC, f.version);
      const hs = s.byPath.get('messages/handshake-request.schema.json')!.schema.properties as Record<string, unknown>;
      return [
        f.version,
        s.index.topics.length,
        s.index.transport.portAttempts,
        'token' in hs,
        s.index.errorCodes.length,
      ];
    });
    expect(facts).toEqual([
      ['0.1.0', 4, 1, false, 4],
      ['0.1.1', 4, 1, false, 4],
      ['0.1.2', 6, 1, false, 4],
      ['0.1.3', 6, 10, true, 5],
      ['0.1.4', 9, 10, true, 5],
      ['0.1.5', 10, 10, true, 5],
    ]);
  });

  it('every $id carries its version', () => {
    for (const f of older) {
      const s = loadVersion(SPEC, f.version);
      for (const { path, schema } of s.docs)
        expect(schema.$id).toBe(`https://idea-protocol.invalid/spec/v${f.version}/${path}`);
    }
  });

  it('in 0.1.4 only, history/diff refuses fromIndex=0 (given or omitted) with a toIndex other than 1', () => {
    const validator = (v: string) => {
      const ajv = new Ajv2020({ strict: true });
      const s = loadVersion(SPEC, v);
      for (const { schema } of s.docs) ajv.addSchema(schema);
      return ajv.getSchema(`https://idea-protocol.invalid/spec/v${v}/topics/history-diff.params.schema.json`)!;
    };
    const v014 = validator('0.1.4');
    const v015 = validator('0.1.5');
    const f = 'src/a.ts';
    expect(
      [
        { filePath: f, fromIndex: 0, toIndex: 2 },
        { filePath: f, toIndex: 3 },
      ].map((p) => [v014(p), v015(p)]),
    ).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(
      [
        { filePath: f, fromIndex: 0, toIndex: 1 },
        { filePath: f, fromIndex: 2, toIndex: 5 },
        { filePath: f },
        { filePath: f, fromRef: 'a', toRef: 'b' },
      ].every((p) => v014(p)),
    ).toBe(true);
  });

  it('before 0.1.2 a client file path must be absolute', () => {
    const defs = (v: string) =>
      (readJson(join(SPEC, `v${v}`, 'defs.schema.json')) as { $defs: { FilePath: { pattern?: string } } }).$defs
        .FilePath;
    expect(defs('0.1.1').pattern).toBeDefined();
    expect(new RegExp(defs('0.1.1').pattern!).test('src/a.ts')).toBe(false);
    expect(defs('0.1.2').pattern).toBeUndefined();
  });
});
