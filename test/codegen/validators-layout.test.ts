// validators.js is laid out for review: one closure per root schema with ajv's module-level names
// numbered inside it, so a one-field change touches only the sections of the schemas holding it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renumber } from '../../codegen/src/gen-validators';
import { generateVersion } from '../../codegen/src/generate';
import { scratchSpec } from './scratch-spec';

const tmp = mkdtempSync(join(tmpdir(), 'idea-validators-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** validators.js split into its sections, by exported name. */
function sections(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of code.split(/\n(?=\/\/ \w+: \S+\.schema\.json\n)/).slice(1)) {
    out.set(/export const (\w+) =/.exec(part)![1]!, part);
  }
  return out;
}

describe('validators.js layout', () => {
  it('renumbers module-level names per section, leaving strings and comments alone', () => {
    const code =
      'const schema7 = {"x":"schema7 validate3"};\nfunction validate3(){/* func9 */ return func9(schema7) && validate12();}\nvalidate3.evaluated = 1;';
    expect(renumber(code)).toBe(
      'const schema0 = {"x":"schema7 validate3"};\nfunction validate0(){/* func9 */ return func0(schema0) && validate1();}\nvalidate0.evaluated = 1;',
    );
  });

  it('a new field referencing a shared object definition changes only the section of its schema', async () => {
    const spec = join(tmp, 'spec');
    scratchSpec(spec, ['v0.1.6']);
    const before = sections((await generateVersion(spec, 'v0.1.6')).get('validators.js')!);
    const path = join(spec, 'v0.1.6', 'topics', 'edit-find.params.schema.json');
    const schema = JSON.parse(readFileSync(path, 'utf8')) as { properties: Record<string, unknown> };
    // Location is compiled into a function of its own: before the per-section layout, this
    // renumbered every validate/schema/func name after it (3,810 diff lines in generated/).
    schema.properties.near = {
      $ref: '../defs.schema.json#/$defs/Location',
      description: 'Search around this location.',
    };
    writeFileSync(path, JSON.stringify(schema, null, 2));
    const after = sections((await generateVersion(spec, 'v0.1.6')).get('validators.js')!);

    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(before.size).toBe(33);
    const changed = [...after].filter(([name, code]) => before.get(name) !== code).map(([name]) => name);
    expect(changed).toEqual(['validateEditFindParams']);
  });
});
