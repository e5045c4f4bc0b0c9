// validators.js: ajv standalone code (ESM), one named export per root schema, compiled ahead of time.
// Defaults are NOT applied (useDefaults off): validators only check, they never touch the wire object.
//
// Layout for reviewable diffs: ajv numbers its module-level names (validate12, schema40, func4) with
// one counter per instance, so one new field used to renumber everything after it (~2,000 diff
// lines). Each root schema is therefore emitted as its own section, a closure holding everything it
// uses, with those names renumbered from 0 in order of appearance: a change to one schema changes
// only the sections of the schemas that contain it.

import { createStrictAjv, specAjv } from '@idea-kit/spec-lib/lint';
import type { RefResolver } from '@idea-kit/spec-lib/refs';
import type { Ajv2020 } from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';

/** ajv code options of the generator: ESM source kept for standalone output. */
export function createGeneratorAjv(): Ajv2020 {
  // optimize off: halves generation time; the code is ~8% larger and measured as fast (bench/codegen).
  return createStrictAjv({ esm: true, source: true, lines: true, optimize: false });
}

/** Prefixes of ajv's module-level (instance-wide) names; function-local names restart per function. */
const MODULE_NAME =
  /("(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\/)|\b(validate|schema|func|pattern|formats|keyword|obj|wrapper|root)(\d+)\b/g;

/** Renumbers ajv's module-level names of one section from 0, in order of first appearance. */
export function renumber(code: string): string {
  const seen = new Map<string, string>();
  const counters = new Map<string, number>();
  return code.replace(MODULE_NAME, (m, literal: string | undefined, prefix: string) => {
    if (literal !== undefined) return m; // strings and comments are left alone
    let name = seen.get(m);
    if (name === undefined) {
      const n = counters.get(prefix) ?? 0;
      counters.set(prefix, n + 1);
      name = `${prefix}${n}`;
      seen.set(m, name);
    }
    return name;
  });
}

/**
 * The module: static imports of ajv's runtime helpers, then one section per root schema
 * (`export const validateX = (() => { …; return validate0; })();`), sorted by name.
 * `ajv` already holds the version's schemas (the lint compiled them); a fresh one is made otherwise.
 */
export function generateValidators(refs: RefResolver, ajv: Ajv2020 = specAjv(refs.spec, createGeneratorAjv())): string {
  const sections = refs.roots.map((r) => {
    const raw = standaloneCode(ajv, { [r.validator]: r.id }).replace(/^"use strict";\n?/, '');
    const code = renumber(raw);
    const exported = new RegExp(`^export const ${r.validator} = (validate\\d+);\\n`, 'm').exec(code);
    if (!exported) throw new Error(`validators: no export of ${r.validator} in ajv's output`);
    const body = code.replace(exported[0], '').trim();
    return `// ${r.name}: ${r.path}\nexport const ${r.validator} = (() => {\n${body}\nreturn ${exported[1]};\n})();`;
  });
  return esmImports(sections.join('\n\n'));
}

/**
 * ajv's ESM standalone output still `require`s its runtime helpers (ucs2length, equal…), which does
 * not exist in ES modules: turn each into a static import named after its module, so adding a helper
 * renames nothing. `pick` tolerates both CJS interop shapes (default = module.exports, or default =
 * exports.default).
 */
function esmImports(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)\.(\w+)/g, (_m, mod: string, prop: string) => {
    let name = modules.get(mod);
    if (name === undefined) {
      const base = `dep_${mod.replace(/^.*\//, '').replace(/\W/g, '_')}`;
      name = [...modules.values()].includes(base) ? `${base}_${modules.size}` : base;
      modules.set(mod, name);
    }
    return `pick(${name}, ${JSON.stringify(prop)})`;
  });
  if (/\brequire\(/.test(body)) throw new Error('validators: unexpected require() left in ajv output');
  if (modules.size === 0) return body;
  const imports = [...modules]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([m, name]) => `import ${name} from ${JSON.stringify(/\.[cm]?js$/.test(m) ? m : `${m}.js`)};`);
  const pick = 'const pick = (m, k) => (m !== null && typeof m === "object" && k in m ? m[k] : m);';
  return [...imports, pick, '', body].join('\n');
}
