// A change inside a $def is one entry, under the $def, with its uses listed under it, in every output
// format; its level is that of its most severe use. A topic's or error code's `since` change is WARN.
import { join } from 'node:path';
import { type JsonObject, loadSpec, type Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../spec-tools/diff/format';
import { diffVersions } from '../../spec-tools/diff/version-diff';
import { REPO } from './scratch';
import { copySpec } from './spec-copy';

const SPEC = join(REPO, 'spec');
// A released (frozen) version: the use counts below are its facts, untouched by drafts adding topics.
const LATEST = loadSpec(SPEC, '0.1.6');
const copy = (s: SpecVersion) => copySpec(s);
const def = (s: SpecVersion, name: string) =>
  (s.byPath.get('defs.schema.json')!.schema.$defs as JsonObject)[name] as JsonObject;

function lineNumberTightened() {
  const b = copy(LATEST);
  def(b, 'LineNumber').minimum = 1;
  return diffVersions(LATEST, b);
}

describe('grouping by $def', () => {
  it('one change with its uses; the level is the most severe use', () => {
    const { changes } = lineNumberTightened();
    expect(changes).toHaveLength(1);
    const [c] = changes;
    expect([c!.level, c!.kind, c!.location, c!.path]).toEqual(['ERR', 'bound-tightened', '$defs/LineNumber', '']);
    expect(c!.uses!.length).toBeGreaterThan(5);
    expect(c!.uses!.filter((u) => u.level === 'ERR').map((u) => `${u.location} ${u.path}`)).toEqual([
      'topic /app/vscode/nav/definition params line',
      'topic /app/vscode/nav/references params line',
    ]);
    expect(
      c!.uses!.filter((u) => u.level !== 'ERR').every((u) => u.level === 'INFO' && u.location.endsWith(' result')),
    ).toBe(true);
    expect(c!.message).toMatch(
      /^minimum `0` → minimum `1`: the server now rejects values existing clients may send \(12 uses: 2 ERR, 10 INFO\)$/,
    );
  });

  it('text, markdown, json and junit list the uses under the one change', () => {
    const report = lineNumberTightened();
    const text = formatReport(report, 'text').split('\n');
    expect(text[0]).toBe(`idea-spec diff ${LATEST.version} → ${LATEST.version}: 1 ERR, 0 WARN, 0 INFO`);
    expect(text[1]).toMatch(/^ERR {2}\$defs\/LineNumber: minimum/);
    expect(text[2]).toBe('       ERR  topic /app/vscode/nav/definition params › line');
    const md = formatReport(report, 'markdown');
    expect(md).toContain('- **$defs/LineNumber**: minimum');
    expect(md).toContain('\n  - INFO topic /app/vscode/edit/find result `matches[].line`\n');
    const json = JSON.parse(formatReport(report, 'json')) as {
      summary: unknown;
      changes: { uses: { level: string; message: string }[] }[];
    };
    expect(json.summary).toEqual({ ERR: 1, WARN: 0, INFO: 0 });
    expect(json.changes[0]!.uses[0]!.message).toMatch(/the server now rejects/);
    const junit = formatReport(report, 'junit');
    expect(junit.match(/<testcase /g)).toHaveLength(1);
    expect(junit).toMatch(
      /<failure type="ERR" message="minimum [^"]*">ERR topic \/app\/vscode\/nav\/definition params › line: /,
    );
    expect(junit).toContain('INFO topic /app/vscode/edit/find result › matches[].line: ');
  });

  it('a change at a use site, next to the $ref, stays at that use', () => {
    const b = copy(LATEST);
    const include = (b.byPath.get('topics/edit-find.params.schema.json')!.schema.properties as JsonObject)
      .include as JsonObject;
    include.default = '**';
    def(b, 'Glob').minLength = 1;
    const cs = diffVersions(LATEST, b).changes.map(
      (c) => `${c.level} ${c.location} ${c.path} ${c.uses?.length ?? '-'}`,
    );
    expect(cs).toContain('WARN topic /app/vscode/edit/find params include -');
    expect(cs.filter((c) => c.includes('$defs/Glob'))).toHaveLength(1);
  });
});

describe('since', () => {
  it("a topic's or error code's since changed is WARN", () => {
    const b = copy(LATEST);
    b.index.topics[0]!.since = '0.0.9';
    b.index.errorCodes[0]!.since = '0.0.9';
    const cs = diffVersions(LATEST, b).changes.map((c) => `${c.level} ${c.kind} ${c.location} ${c.path}`);
    expect(cs).toEqual([
      `WARN since-changed error codes ${LATEST.index.errorCodes[0]!.code}`,
      `WARN since-changed topic ${LATEST.index.topics[0]!.topic} since`,
    ]);
  });
});
