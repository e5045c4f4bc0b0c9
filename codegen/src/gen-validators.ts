// validators.js: ajv standalone code (ESM), one named export per root schema, compiled ahead of time.
// Defaults are NOT applied (useDefaults off): validators only check, they never touch the wire object.
import { Ajv2020 } from "ajv/dist/2020";
import standaloneCode from "ajv/dist/standalone";
import type { RefResolver } from "./refs";

export async function createAjv(withFormats: boolean): Promise<Ajv2020> {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false, // `type` unions and anyOf branches without a type are legitimate in the spec
    allErrors: false, // first error only: cheapest, and one named field is what error messages carry
    useDefaults: false,
    // Checking each schema against the draft 2020-12 meta-schema would compile that meta-schema in
    // every per-version instance (half the cost); checkSchemas() does it once for all versions.
    validateSchema: false,
    // optimize off: halves generation time; the code is ~8% larger and measured as fast (bench/codegen).
    code: { esm: true, source: true, lines: true, optimize: false },
  });
  if (withFormats) {
    // Only when a schema uses `format`: loading and registering the formats is a third of the cost.
    const { default: addFormats } = await import("ajv-formats");
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  }
  return ajv;
}

const usesFormat = (node: unknown): boolean =>
  Array.isArray(node)
    ? node.some(usesFormat)
    : typeof node === "object" && node !== null &&
      Object.entries(node).some(([k, v]) => (k === "format" && typeof v === "string") || usesFormat(v));

let metaAjv: Ajv2020 | undefined;

/** Validates every schema document of the version against the draft 2020-12 meta-schema. */
function checkSchemas(refs: RefResolver): void {
  metaAjv ??= new Ajv2020({ strict: true, strictTypes: false });
  for (const doc of refs.spec.docs) {
    if (!metaAjv.validateSchema(doc.schema)) {
      throw new Error(`${refs.spec.folder}/${doc.path}: not a valid JSON Schema: ${metaAjv.errorsText(metaAjv.errors)}`);
    }
  }
}

export async function generateValidators(refs: RefResolver): Promise<string> {
  checkSchemas(refs);
  const ajv = await createAjv(refs.spec.docs.some((d) => usesFormat(d.schema)));
  for (const doc of refs.spec.docs) ajv.addSchema(doc.schema, doc.id);
  const exports: Record<string, string> = {};
  for (const r of refs.roots) exports[r.validator] = r.id;
  return esmImports(standaloneCode(ajv, exports));
}

/**
 * ajv's ESM standalone output still `require`s its runtime helpers (ucs2length, equal, formats…),
 * which does not exist in ES modules: turn each into a static import. `pick` tolerates both CJS
 * interop shapes (default = module.exports, or default = exports.default).
 */
function esmImports(code: string): string {
  const modules: string[] = [];
  const body = code.replace(/require\("([^"]+)"\)\.(\w+)/g, (_m, mod: string, prop: string) => {
    let i = modules.indexOf(mod);
    if (i < 0) i = modules.push(mod) - 1;
    return `pick(dep${i}, ${JSON.stringify(prop)})`;
  });
  if (/\brequire\(/.test(body)) throw new Error("validators: unexpected require() left in ajv output");
  if (modules.length === 0) return body;
  const imports = modules.map((m, i) => `import dep${i} from ${JSON.stringify(/\.[cm]?js$/.test(m) ? m : `${m}.js`)};`);
  const pick = 'const pick = (m, k) => (m !== null && typeof m === "object" && k in m ? m[k] : m);';
  // Imports must come first; ES modules are strict anyway, so the "use strict" prologue can go.
  return [...imports, pick, body.replace(/^"use strict";\n?/, "")].join("\n");
}
