// Per-field documentation in types.ts and protocol.md: the description written beside a $ref, the
// default (@default) and the version that added the field (@since, derived from the spec folders).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVersion } from '../../codegen/src/generate';
import { scratchSpec } from './scratch-spec';

const ROOT = join(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'idea-docs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The JSDoc block right above `member` inside `export interface name { … }`. */
function jsdocOf(types: string, name: string, member: string): string {
  const body = new RegExp(`export interface ${name} \\{\\n([\\s\\S]*?)\\n\\}`).exec(types)?.[1] ?? '';
  const m = new RegExp(`(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/)\\n\\s*${member}\\??:`).exec(body);
  return m ? m[1]!.replace(/\n\s*/g, '\n') : '(no JSDoc)';
}

describe('field docs', () => {
  it('the committed v0.1.6 types keep descriptions beside $refs and carry @default and @since', () => {
    const types = readFileSync(join(ROOT, 'generated', 'v0.1.6', 'types.ts'), 'utf8');
    expect(jsdocOf(types, 'FindMatch', 'filePath')).toBe('/**\n* Absolute path of the file.\n*/');
    expect(jsdocOf(types, 'EditFindParams', 'include')).toBe(
      '/**\n* Files to search (default: ** /*)\n* @default "**\\/*"\n*/',
    );
    expect(jsdocOf(types, 'HandshakeRequest', 'token')).toContain('* @since 0.1.3\n');
    expect(jsdocOf(types, 'HandshakeRequest', 'type')).not.toContain('@since'); // as old as the message
    const md = readFileSync(join(ROOT, 'generated', 'v0.1.6', 'protocol.md'), 'utf8');
    expect(md).toContain(
      '| `authRequired` | boolean | yes |  | Whether the server requires a token. *(since 0.1.3)* |',
    );
  });

  it('a field added in a newer version folder is marked @since that version there, and only there', async () => {
    const spec = join(tmp, 'spec');
    scratchSpec(spec, ['v0.1.5', 'v0.1.6']);
    const path = join(spec, 'v0.1.6', 'topics', 'edit-find.params.schema.json');
    const schema = JSON.parse(readFileSync(path, 'utf8')) as { properties: Record<string, unknown> };
    schema.properties.near = {
      $ref: '../defs.schema.json#/$defs/Location',
      description: 'Search around this location.',
    };
    schema.properties.maxMatches = {
      type: 'integer',
      minimum: 1,
      default: 500,
      description: 'Stop after this many matches.',
    };
    writeFileSync(path, JSON.stringify(schema, null, 2));

    const files = await generateVersion(spec, 'v0.1.6');
    const types = files.get('types.ts')!;
    expect(jsdocOf(types, 'EditFindParams', 'near')).toBe('/**\n* Search around this location.\n* @since 0.1.6\n*/');
    expect(types).toMatch(/@since 0\.1\.6\n\s*\*\/\n\s*near\?: Location\n/);
    expect(jsdocOf(types, 'EditFindParams', 'maxMatches')).toBe(
      '/**\n* Stop after this many matches.\n* @default 500\n* @since 0.1.6\n*/',
    );
    expect(jsdocOf(types, 'EditFindParams', 'pattern')).not.toContain('@since');
    const md = files.get('protocol.md')!;
    expect(md).toContain('| `near` | object | no |  | Search around this location. *(since 0.1.6)* |');
    expect(md).toContain('| `near.filePath` | string matching');
    expect(md).toMatch(
      /\| `maxMatches` \| integer ≥ 1 \| no \| `500` \| Stop after this many matches\. \*\(since 0\.1\.6\)\* \|/,
    );

    // Alone in its spec folder, nothing is newer than anything: no @since at all.
    const alone = join(tmp, 'alone');
    scratchSpec(alone, []);
    cpSync(join(spec, 'v0.1.6'), join(alone, 'v0.1.6'), { recursive: true });
    expect((await generateVersion(alone, 'v0.1.6')).get('types.ts')).not.toContain('@since');
  });
});
