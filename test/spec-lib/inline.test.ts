// The one schema walk (spec-lib/inline.ts over keywords.ts) and the served version (served.ts): every
// subschema keyword is walked and nothing else, a $ref's own keywords win over its target's, a cycle
// of $refs is refused, and spec/served.json names an existing folder.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inlineRefs, visitSchema } from '@idea-kit/spec-lib/inline';
import { SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from '@idea-kit/spec-lib/keywords';
import { schemaNodes } from '@idea-kit/spec-lib/schema-walk';
import { servedVersion } from '@idea-kit/spec-lib/served';
import { type Json, loadSpec, type Spec } from '@idea-kit/spec-lib/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { copySpec } from '../spec-tools/spec-copy';

const SPEC = join(import.meta.dirname, '..', '..', 'spec');
const spec = loadSpec(SPEC, 'v0.1.6');
const tmp = mkdtempSync(join(tmpdir(), 'idea-spec-lib-inline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A schema with one `{$ref}` marker under every subschema keyword and the same marker under data keys. */
function everywhere(marker: Json): { [k: string]: Json } {
  const s: { [k: string]: Json } = {};
  for (const k of SCHEMA_KEYWORDS) s[k] = marker;
  for (const k of SCHEMA_LIST_KEYWORDS) s[k] = [marker];
  for (const k of SCHEMA_MAP_KEYWORDS) s[k] = { name: marker };
  for (const k of ['default', 'enum', 'const', 'examples', 'x-data'])
    s[k] = k === 'enum' || k === 'examples' ? [marker] : marker;
  return s;
}

describe('the schema walk', () => {
  const ref = { $ref: 'defs.schema.json#/$defs/FilePath' };

  it('inlines a $ref under every subschema keyword and leaves data alone', () => {
    const out = inlineRefs(spec, 'x.schema.json', everywhere(ref)) as Record<string, any>;
    const filePath = inlineRefs(spec, 'x.schema.json', ref) as Record<string, unknown>;
    expect(filePath).toMatchObject({ type: 'string', minLength: 1 });
    for (const k of SCHEMA_KEYWORDS) expect(out[k], k).toEqual(filePath);
    for (const k of SCHEMA_LIST_KEYWORDS) expect(out[k], k).toEqual([filePath]);
    for (const k of SCHEMA_MAP_KEYWORDS) expect(out[k], k).toEqual({ name: filePath });
    expect(out.default).toEqual(ref);
    expect(out.const).toEqual(ref);
    expect(out.enum).toEqual([ref]);
    expect(out['x-data']).toEqual(ref);
    expect(out.examples).toBeUndefined(); // dropped by the plain inlining
  });

  it('schemaNodes visits the same keywords: one table', () => {
    const pointers = [...schemaNodes(everywhere({ type: 'string' }))].map(([, p]) => p).filter((p) => p !== '');
    const expected = [
      ...[...SCHEMA_KEYWORDS].map((k) => `/${k}`),
      ...[...SCHEMA_LIST_KEYWORDS].map((k) => `/${k}/0`),
      ...[...SCHEMA_MAP_KEYWORDS].map((k) => `/${k}/name`),
    ];
    expect(pointers.sort()).toEqual(expected.sort());
  });

  it("a $ref's own keywords win over its target's, in the target's key order", () => {
    const out = inlineRefs(spec, 'x.schema.json', {
      description: 'Mine.',
      $ref: 'defs.schema.json#/$defs/FilePath',
      minLength: 3,
    });
    expect(out).toMatchObject({ type: 'string', description: 'Mine.', minLength: 3 });
    const target = inlineRefs(spec, 'x.schema.json', ref) as object;
    expect(Object.keys(out as object).slice(0, Object.keys(target).length)).toEqual(Object.keys(target));
  });

  it('refuses a cycle of $refs, naming it', () => {
    const looped: Spec = copySpec(spec);
    const defs = looped.byPath.get('defs.schema.json')!.schema.$defs as Record<string, Json>;
    defs.A = { type: 'object', properties: { b: { $ref: '#/$defs/B' } } };
    defs.B = { type: 'array', items: { $ref: '#/$defs/A' } };
    expect(() => inlineRefs(looped, 'defs.schema.json', { $ref: '#/$defs/A' })).toThrow(/recursive \$ref #\/\$defs\/A/);
  });

  it('hands a visitor each $ref with its target, leaving the rewrite to it', () => {
    const seen: string[] = [];
    const out = visitSchema(
      spec,
      'x.schema.json',
      { properties: { p: ref } },
      {
        object(own, _node, r) {
          if (!r) return own;
          seen.push(`${r.target.path}#${r.target.pointer}`);
          return { ...own, $ref: 'renamed' };
        },
      },
    );
    expect(seen).toEqual(['defs.schema.json#/$defs/FilePath']);
    expect(out).toEqual({ properties: { p: { $ref: 'renamed' } } });
  });
});

describe('the served version (spec/served.json)', () => {
  it('names a spec folder', () => {
    expect(servedVersion(SPEC)).toMatch(/^\d+\.\d+\.\d+$/);
    const root = join(tmp, 'spec');
    mkdirSync(root, { recursive: true });
    expect(() => servedVersion(root)).toThrow(/served\.json is missing/);
    cpSync(join(SPEC, 'v0.1.6'), join(root, 'v0.1.6'), { recursive: true });
    writeFileSync(join(root, 'served.json'), JSON.stringify({ version: '0.1.7' }));
    expect(() => servedVersion(root)).toThrow(/serves 0\.1\.7, but there is no spec\/v0\.1\.7\//);
    writeFileSync(join(root, 'served.json'), JSON.stringify({ version: 'latest' }));
    expect(() => servedVersion(root)).toThrow(/expected \{"version": "<x\.y\.z>"\}/);
    writeFileSync(join(root, 'served.json'), JSON.stringify({ version: 'v0.1.6' }));
    expect(servedVersion(root)).toBe('0.1.6');
  });
});
