import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../codegen/src/version";
import { SPEC_ROOT, loadVersion, newAjv, readJson, versions } from "./load-spec";

describe("spec/index.schema.json", () => {
  it("compiles in strict mode and rejects a malformed index", () => {
    const validate = newAjv().compile(readJson(join(SPEC_ROOT, "index.schema.json")));
    expect(validate({ version: "0.1.6" })).toBe(false);
    expect(validate({})).toBe(false);
  });
});

describe.each(versions())("spec/%s/index.json", (versionDir) => {
  const dir = join(SPEC_ROOT, versionDir);
  const index = readJson(join(dir, "index.json"));
  const { ajv, base } = loadVersion(versionDir);

  it("validates against spec/index.schema.json, which it names in $schema", () => {
    expect(index.$schema).toBe("../index.schema.json");
    const validate = newAjv().compile(readJson(join(dir, index.$schema)));
    expect(validate(index), JSON.stringify(validate.errors)).toBe(true);
  });

  it("carries the folder's version", () => {
    expect(`v${index.version}`).toBe(versionDir);
  });

  it("every file it names exists", () => {
    const paths: string[] = [
      ...Object.values(index.messages as Record<string, string>),
      ...index.topics.flatMap((t: any) => [t.params, t.result]),
    ];
    expect(paths.length).toBe(7 + 2 * index.topics.length);
    for (const p of paths) expect(existsSync(join(dir, p)), p).toBe(true);
  });

  it("error codes agree with messages/error-code.schema.json and are not newer than the version", () => {
    const schema = readJson(join(dir, index.messages.errorCode));
    expect(index.errorCodes.map((e: any) => e.code)).toEqual(schema.enum);
    for (const e of index.errorCodes) expect(compareVersions(e.since, index.version), e.code).toBeLessThanOrEqual(0);
  });

  // method and typeName are free: renaming one is allowed (the diff reports it as WARN,
  // docs/maintainers.md); they only have to stay unique. Schema files are named after the topic.
  it("topics: unique topics, methods and type names, since <= version, errors ⊆ errorCodes, files named after the topic", () => {
    const codes = new Set(index.errorCodes.map((e: any) => e.code));
    for (const key of ["topic", "method", "typeName"]) {
      const names = index.topics.map((t: any) => t[key]);
      expect(names.filter((n: string, i: number) => names.indexOf(n) !== i), `duplicate ${key}`).toEqual([]);
    }
    for (const t of index.topics) {
      expect(compareVersions(t.since, index.version), t.topic).toBeLessThanOrEqual(0);
      for (const e of t.errors) expect(codes.has(e), `${t.topic}: ${e}`).toBe(true);
      const [, , , category, action] = t.topic.split("/");
      expect(t.params).toBe(`topics/${category}-${action.toLowerCase()}.params.schema.json`);
      expect(t.result).toBe(`topics/${category}-${action.toLowerCase()}.result.schema.json`);
      expect(ajv.getSchema(base + t.params)!.schema).toMatchObject({ title: `${t.typeName}Params` });
      expect(ajv.getSchema(base + t.result)!.schema).toMatchObject({ title: `${t.typeName}Result` });
    }
  });
});

describe("spec/v0.1.6/index.json facts", () => {
  const index = readJson(join(SPEC_ROOT, "v0.1.6", "index.json"));
  it("matches the protocol's transport, topics and versions", () => {
    expect(index.released).toBe("2026-03-02");
    expect(index.transport).toEqual({ defaultPort: 7200, portAttempts: 10 });
    const since = Object.fromEntries(index.topics.map((t: any) => [t.topic.replace("/app/vscode/", ""), t.since]));
    expect(since).toEqual({
      "edit/find": "0.1.0", "edit/replace": "0.1.0", "nav/definition": "0.1.0", "nav/references": "0.1.0",
      "diag/list": "0.1.2", "nav/symbols": "0.1.2",
      "history/list": "0.1.4", "history/diff": "0.1.4", "fs/findFiles": "0.1.4",
      "history/rollback": "0.1.5",
      "localhistory/list": "0.1.6", "localhistory/diff": "0.1.6", "localhistory/rollback": "0.1.6",
    });
    expect(Object.fromEntries(index.errorCodes.map((e: any) => [e.code, e.since]))).toEqual({
      PARSE_ERROR: "0.1.0", INVALID_REQUEST: "0.1.0", UNKNOWN_TOPIC: "0.1.0", HANDLER_ERROR: "0.1.0", UNAUTHORIZED: "0.1.3",
    });
  });
});
