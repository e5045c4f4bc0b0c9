import { describe, expect, it } from "vitest";
import { ID_BASE, loadVersion, versions } from "./load-spec";

describe.each(versions())("spec/%s schemas", (versionDir) => {
  const { ajv, files, base } = loadVersion(versionDir);

  it("has schema files", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files.map((f) => [f.rel, f] as const))("%s: $schema, $id, title, description", (_rel, f) => {
    expect(f.schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(f.schema.$id).toBe(base + f.rel);
    expect(f.schema.$id.startsWith(`${ID_BASE}${versionDir}/`)).toBe(true);
    expect(typeof f.schema.title).toBe("string");
    expect(typeof f.schema.description).toBe("string");
  });

  it.each(files.map((f) => [f.rel, f] as const))("%s compiles in strict mode", (_rel, f) => {
    expect(() => ajv.getSchema(f.schema.$id)).not.toThrow();
    expect(ajv.getSchema(f.schema.$id)).toBeTypeOf("function");
  });

  const instanceSchemas = files.filter((f) => f.rel !== "defs.schema.json");
  it.each(instanceSchemas.map((f) => [f.rel, f] as const))("%s: 1-3 examples, all valid", (_rel, f) => {
    const examples = f.schema.examples;
    expect(Array.isArray(examples)).toBe(true);
    expect(examples!.length).toBeGreaterThanOrEqual(1);
    expect(examples!.length).toBeLessThanOrEqual(3);
    const validate = ajv.getSchema(f.schema.$id)!;
    for (const ex of examples!) {
      const ok = validate(ex);
      expect(ok, `${JSON.stringify(ex)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it("every shared def has a title and its examples validate", () => {
    const defs = files.find((f) => f.rel === "defs.schema.json")!;
    const entries = Object.entries(defs.schema.$defs as Record<string, { title?: string; examples?: unknown[] }>);
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, def] of entries) {
      expect(def.title, name).toBe(name);
      const validate = ajv.getSchema(`${defs.schema.$id}#/$defs/${name}`)!;
      for (const ex of def.examples ?? []) expect(validate(ex), `${name}: ${JSON.stringify(ex)}`).toBe(true);
    }
  });

  it("titles are unique (one generated type each)", () => {
    const titles: string[] = [];
    for (const f of files) {
      JSON.stringify(f.schema, (k, v) => {
        if (v && typeof v === "object" && !Array.isArray(v) && typeof v.title === "string" && k !== "properties") titles.push(v.title);
        return v;
      });
    }
    expect(titles.length).toBeGreaterThan(files.length);
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
  });

  it("no params or result schema forbids additional properties", () => {
    for (const f of files.filter((f) => f.rel.startsWith("topics/"))) {
      expect(JSON.stringify(f.schema), f.rel).not.toContain('"additionalProperties":false');
    }
  });
});
