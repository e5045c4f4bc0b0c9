// The spec library (spec-lib/spec.ts, refs.ts, version.ts): version order, loading a folder with
// clear errors for what is malformed, and $ref resolution — what codegen, spec-tools and the
// conformance runner all rely on.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRef } from '@idea-kit/spec-lib/refs';
import { clauseSide, hashFolder, loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { compareVersions, isVersion, nextPatch, normalizeVersion, versionFolder } from '@idea-kit/spec-lib/version';
import { afterAll, describe, expect, it } from 'vitest';

const SPEC = join(import.meta.dirname, '..', '..', 'spec');
const tmp = mkdtempSync(join(tmpdir(), 'idea-spec-lib-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('versions', () => {
  it('order numerically in either form, and refuse what is not a version', () => {
    expect(['0.1.10', 'v0.1.9', '1.0.0', '0.2.0', '0.1.2'].sort(compareVersions)).toEqual([
      '0.1.2',
      'v0.1.9',
      '0.1.10',
      '0.2.0',
      '1.0.0',
    ]);
    expect(compareVersions('v0.1.6', '0.1.6')).toBe(0);
    expect(normalizeVersion('v00.1.06')).toBe('0.1.6');
    expect(nextPatch('0.1.9')).toBe('0.1.10');
    expect(versionFolder('0.1.6')).toBe('v0.1.6');
    expect([isVersion('0.1'), isVersion('0.1.6-rc1'), isVersion('../0.1.6'), isVersion('v0.1.6')]).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(() => compareVersions('0.1.6', '0.2')).toThrow(/not a protocol version: "0.2"/);
  });

  it('specVersions lists version folders in order and ignores everything else', () => {
    const root = join(tmp, 'listing');
    for (const d of ['v0.1.10', 'v0.1.9', 'v1.0.0', 'v0.2.0', 'v0.1.2', 'drafts', 'v0.1'])
      mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, 'v0.3.0'), 'a file, not a folder');
    expect(specVersions(root)).toEqual(['0.1.2', '0.1.9', '0.1.10', '0.2.0', '1.0.0']);
  });
});

describe('loadSpec', () => {
  const copy = (name: string): string => {
    const root = join(tmp, name);
    cpSync(join(SPEC, 'v0.1.6'), join(root, 'v0.1.6'), { recursive: true });
    return root;
  };
  const edit = (root: string, rel: string, fn: (doc: any) => void) => {
    const path = join(root, 'v0.1.6', rel);
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    fn(doc);
    writeFileSync(path, JSON.stringify(doc));
  };

  it('loads a version: index, schema documents by path and $id, the folder hash', () => {
    const s = loadSpec(SPEC, 'v0.1.6');
    expect([s.version, s.folder, s.index.version]).toEqual(['0.1.6', 'v0.1.6', '0.1.6']);
    expect(s.byPath.get('topics/edit-find.params.schema.json')!.id).toBe(
      'https://idea-protocol.invalid/spec/v0.1.6/topics/edit-find.params.schema.json',
    );
    expect(s.hash).toBe(hashFolder(join(SPEC, 'v0.1.6')));
  });

  it('names the file and the reason when a folder is malformed', () => {
    const id = copy('bad-id');
    edit(id, 'topics/edit-find.params.schema.json', (d) => {
      d.$id = 'https://idea-protocol.invalid/spec/v0.1.5/topics/edit-find.params.schema.json';
    });
    expect(() => loadSpec(id, '0.1.6')).toThrow(
      /v0\.1\.6\/topics\/edit-find\.params\.schema\.json: \$id is .*v0\.1\.5.*expected/,
    );
    const version = copy('bad-version');
    edit(version, 'index.json', (d) => {
      d.version = '0.1.7';
    });
    expect(() => loadSpec(version, '0.1.6')).toThrow(
      /v0\.1\.6\/index\.json: version is "0\.1\.7", the folder says 0\.1\.6/,
    );
    const json = copy('bad-json');
    writeFileSync(join(json, 'v0.1.6', 'defs.schema.json'), '{ nope');
    expect(() => loadSpec(json, '0.1.6')).toThrow(/v0\.1\.6\/defs\.schema\.json: invalid JSON/);
    expect(() => loadSpec(json, '0.1.9')).toThrow(/no spec for version 0\.1\.9 .*versions present: 0\.1\.6/);
  });

  it('reads which side each clause binds: servers when a folder never says, C<n> for a client clause', () => {
    // Frozen folders predate the field: every clause binds servers.
    expect(new Set(loadSpec(SPEC, '0.1.6').clauses.map(clauseSide))).toEqual(new Set(['server']));
    const draft = loadSpec(SPEC, '0.1.8').clauses;
    expect(draft.every((c) => c.binds !== undefined)).toBe(true);
    expect(draft.filter((c) => c.binds === 'client').every((c) => /^C\d+$/.test(c.id))).toBe(true);
    expect(draft.filter((c) => c.binds === 'both').map((c) => c.id)).toEqual(['T1', 'T2', 'T3']);
    const some = copy('binds-on-some');
    edit(some, 'clauses.json', (d) => {
      d.clauses[0].binds = 'both';
    });
    expect(() => loadSpec(some, '0.1.6')).toThrow(/clauses\[1\]: binds must be server, client or both/);
    const letter = copy('client-letter');
    edit(letter, 'clauses.json', (d) => {
      for (const c of d.clauses) c.binds = 'server';
      d.clauses[0].binds = 'client';
    });
    expect(() => loadSpec(letter, '0.1.6')).toThrow(/clauses\[0\]: id "T1" must be C<n> for a client clause/);
    const server = copy('c-for-server');
    edit(server, 'clauses.json', (d) => {
      for (const c of d.clauses) c.binds = 'server';
      d.clauses[0].id = 'C1';
    });
    expect(() => loadSpec(server, '0.1.6')).toThrow(/id "C1" must be T<n> for a text clause/);
  });
});

describe('resolveRef', () => {
  const s = loadSpec(SPEC, '0.1.6');
  const from = 'topics/edit-find.result.schema.json';

  it('follows relative refs and JSON pointers to the node', () => {
    const t = resolveRef(s, from, '../defs.schema.json#/$defs/LineNumber');
    expect([t.path, t.pointer]).toEqual(['defs.schema.json', '/$defs/LineNumber']);
    expect(t.schema).toBe((s.byPath.get('defs.schema.json')!.schema.$defs as Record<string, unknown>).LineNumber);
    expect(resolveRef(s, from, 'https://idea-protocol.invalid/spec/v0.1.6/defs.schema.json').schema).toBe(
      s.byPath.get('defs.schema.json')!.schema,
    );
  });

  it('refuses refs leaving the version or naming nothing', () => {
    expect(() => resolveRef(s, from, 'https://idea-protocol.invalid/spec/v0.1.5/defs.schema.json')).toThrow(
      /leaves version 0\.1\.6/,
    );
    expect(() => resolveRef(s, from, '../nope.schema.json')).toThrow(/nope\.schema\.json not found/);
    expect(() => resolveRef(s, from, '../defs.schema.json#/$defs/Nope')).toThrow(
      /no \/\$defs\/Nope in defs\.schema\.json/,
    );
  });
});
