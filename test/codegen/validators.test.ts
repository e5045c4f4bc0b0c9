// The generated validators (generated/<v>/validators.js) against the spec: every schema's examples
// pass; invalid instances generated from the schemas fail with a message naming the field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RefResolver } from '@idea-kit/spec-lib/refs';
import { loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { versionFolder } from '@idea-kit/spec-lib/version';
import { describe, expect, it } from 'vitest';
import { describeValidationError, type SchemaError } from '../../runtime/validation-message';
import { mutations } from './mutations';

const ROOT = join(import.meta.dirname, '..', '..');
type Validate = ((v: unknown) => boolean) & { errors?: SchemaError[] | null };

for (const version of specVersions(join(ROOT, 'spec')).map(versionFolder)) {
  describe(version, async () => {
    const spec = loadSpec(join(ROOT, 'spec'), version);
    const refs = new RefResolver(spec);
    const validators = (await import(pathToFileURL(join(ROOT, 'generated', version, 'validators.js')).href)) as Record<
      string,
      Validate
    >;

    it('exports exactly one validator per root schema', () => {
      expect(Object.keys(validators).sort()).toEqual(refs.roots.map((r) => r.validator).sort());
    });

    for (const root of refs.roots) {
      const schema = spec.byPath.get(root.path)!.schema;
      const examples = (schema.examples as unknown[] | undefined) ?? [];
      const validate = validators[root.validator]!;

      it(`${root.name}: has examples, and every example passes`, () => {
        expect(examples.length).toBeGreaterThan(0);
        for (const ex of examples) {
          const ok = validate(ex);
          expect(ok, `${JSON.stringify(ex)}: ${describeValidationError(validate.errors, '')}`).toBe(true);
        }
      });

      const cases = examples.flatMap((ex) => mutations({ schema, baseId: root.id }, ex, refs));
      if (cases.length === 0) continue;
      it(`${root.name}: ${cases.length} generated invalid instances fail, naming the field`, () => {
        for (const c of cases) {
          const before = JSON.stringify(c.value);
          expect(validate(c.value), c.label).toBe(false);
          expect(JSON.stringify(c.value), 'validators never modify the value').toBe(before);
          const message = describeValidationError(validate.errors, '');
          const field = c.field.replace(/\[0\]/g, '\\[0\\]').replace(/\./g, '\\.');
          expect(message, c.label).toMatch(new RegExp(`^${field}\\b`));
        }
      });
    }
  });
}

describe('mutations', () => {
  it('cover drop-required, wrong type, minimum, enum and pattern on v0.1.6', () => {
    const spec = loadSpec(join(ROOT, 'spec'), 'v0.1.6');
    const refs = new RefResolver(spec);
    const labels = refs.roots.flatMap((r) => {
      const s = spec.byPath.get(r.path)!.schema;
      return ((s.examples as unknown[]) ?? []).flatMap((ex) =>
        mutations({ schema: s, baseId: r.id }, ex, refs).map((m) => m.label),
      );
    });
    for (const kind of ['drop required', 'wrong type', 'below minimum', 'enum miss', 'pattern miss']) {
      expect(
        labels.some((l) => l.startsWith(kind)),
        kind,
      ).toBe(true);
    }
    expect(labels.length).toBeGreaterThan(200);
    expect(readFileSync(join(ROOT, 'generated', 'v0.1.6', 'validators.js'), 'utf8')).not.toMatch(/\brequire\(/);
  });
});
