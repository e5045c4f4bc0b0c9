// generated/<v>/mcp-tools.ts: one tool per topic, valid MCP names, annotations from
// spec/topic-annotations.json, and schemas that mean exactly what the spec's documents mean.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RefResolver } from '@idea-kit/spec-lib/refs';
import { type JsonSchema, loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { Ajv2020 } from 'ajv/dist/2020';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../codegen/src/cli';
import { bundleSchema, MCP_TOOL_NAME } from '../../codegen/src/gen-mcp-tools';
import { loadMcpTools, VERSIONS } from '../../generated/versions';

const ROOT = join(import.meta.dirname, '..', '..');
const SPEC = join(ROOT, 'spec');
const annotations = JSON.parse(readFileSync(join(SPEC, 'topic-annotations.json'), 'utf8')) as {
  topics: Record<string, { title: string; readOnly: boolean; destructive: boolean; idempotent: boolean }>;
};
const tmp = mkdtempSync(join(tmpdir(), 'idea-mcp-tools-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every $ref replaced by its target, recursively (an independent reading of the references). */
function inline(
  node: unknown,
  resolve: (ref: string, base: string) => { schema: JsonSchema; base: string },
  base: string,
  depth = 0,
): unknown {
  if (depth > 40) throw new Error('reference cycle');
  if (Array.isArray(node)) return node.map((n) => inline(n, resolve, base, depth));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (k === '$id' || k === '$schema' || k === '$defs') continue;
    if (k === '$ref') {
      const t = resolve(v as string, base);
      out.$ref = inline(t.schema, resolve, t.base, depth + 1); // the target, in place of the reference
    } else if (k === 'const' || k === 'enum' || k === 'default' || k === 'examples') out[k] = v;
    else if (k === 'properties')
      out[k] = Object.fromEntries(
        Object.entries(v as JsonSchema).map(([p, s]) => [p, inline(s, resolve, base, depth)]),
      );
    else out[k] = inline(v, resolve, base, depth);
  }
  return out;
}

describe('MCP tool definitions', () => {
  it('every version: one tool per topic, valid unique names, annotations from spec/topic-annotations.json', async () => {
    for (const version of VERSIONS) {
      const tools = await loadMcpTools(version)!;
      const index = JSON.parse(readFileSync(join(SPEC, `v${version}`, 'index.json'), 'utf8')) as {
        topics: { topic: string; description: string; servedBy?: string }[];
      };
      // events/subscribe and events/unsubscribe belong to the connection, not to a one-shot tool call.
      index.topics = index.topics.filter((t) => t.servedBy !== 'session');
      expect(tools.map((t) => t.topic)).toEqual(index.topics.map((t) => t.topic));
      expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
      for (const [i, tool] of tools.entries()) {
        expect(tool.name).toMatch(MCP_TOOL_NAME);
        expect(tool.description).toBe(index.topics[i]!.description);
        const a = annotations.topics[tool.topic]!;
        expect(tool.title).toBe(a.title);
        expect(tool.annotations).toEqual({
          title: a.title,
          readOnlyHint: a.readOnly,
          destructiveHint: a.destructive,
          idempotentHint: a.idempotent,
          openWorldHint: false,
        });
        expect(tool.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(tool.outputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      }
    }
    expect((await loadMcpTools('0.1.6'))!.find((t) => t.name === 'edit_replace')!.annotations.destructiveHint).toBe(
      true,
    );
    expect(loadMcpTools('9.9.9')).toBeUndefined();
  });

  it("each schema, references inlined, is the spec document's, references inlined (every version)", async () => {
    for (const folder of specVersions(SPEC)) {
      const spec = loadSpec(SPEC, folder);
      const refs = new RefResolver(spec);
      const tools = (await loadMcpTools(spec.index.version))!;
      const toolTopics = spec.index.topics.filter((t) => t.servedBy !== 'session');
      for (const [i, t] of toolTopics.entries()) {
        for (const [path, bundled] of [
          [t.params, tools[i]!.inputSchema],
          [t.result, tools[i]!.outputSchema],
        ] as const) {
          const doc = spec.byPath.get(path)!;
          const fromSpec = inline(
            doc.schema,
            (ref, base) => {
              const target = refs.resolve(ref, base);
              return { schema: target.schema, base: target.baseId };
            },
            doc.id,
          );
          const defs = (bundled.$defs ?? {}) as Record<string, JsonSchema>;
          const fromTool = inline(
            bundled,
            (ref) => {
              const m = /^#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
              if (!m || !defs[m[1]!]) throw new Error(`${path}: bundled ref ${ref} does not point under $defs`);
              return { schema: defs[m[1]!]!, base: '' };
            },
            '',
          );
          expect(fromTool, `${folder} ${path}`).toEqual(fromSpec);
        }
      }
    }
  });

  it("the schemas compile as draft 2020-12 on their own and accept the spec's examples", async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const tool of (await loadMcpTools('0.1.6'))!) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        const validate = ajv.compile(schema);
        for (const ex of (schema.examples ?? []) as unknown[])
          expect(validate(ex), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('refuses a topic without annotations and an annotation file that breaks its schema, naming the problem', async () => {
    const spec = join(tmp, 'spec');
    cpSync(join(SPEC, 'v0.1.6'), join(spec, 'v0.1.6'), { recursive: true });
    cpSync(join(SPEC, 'topic-annotations.schema.json'), join(spec, 'topic-annotations.schema.json'));
    const edited = structuredClone(annotations);
    delete edited.topics['/app/vscode/nav/symbols'];
    writeFileSync(join(spec, 'topic-annotations.json'), JSON.stringify(edited));
    const args = ['--spec', spec, '--out', join(tmp, 'out'), '--fixture-schema', join(tmp, 'none.json')];
    await expect(run(args)).rejects.toThrow(/topic-annotations\.json has no entry for \/app\/vscode\/nav\/symbols/);
    const contradictory = structuredClone(annotations);
    contradictory.topics['/app/vscode/edit/find']!.destructive = true; // read-only yet destructive
    writeFileSync(join(spec, 'topic-annotations.json'), JSON.stringify(contradictory));
    await expect(run(args)).rejects.toThrow(/does not match topic-annotations\.schema\.json/);
  });

  it('an annotation change is drift even for the fast (manifest) --check', async () => {
    const spec = join(tmp, 'spec2');
    const out = join(tmp, 'out2');
    cpSync(join(SPEC, 'v0.1.6'), join(spec, 'v0.1.6'), { recursive: true });
    for (const f of ['topic-annotations.json', 'topic-annotations.schema.json']) cpSync(join(SPEC, f), join(spec, f));
    const args = ['--spec', spec, '--out', out, '--fixture-schema', join(tmp, 'none.json')];
    expect(await run(args)).toBe(0);
    expect(await run([...args, '--check'])).toBe(0);
    const edited = structuredClone(annotations);
    edited.topics['/app/vscode/edit/find']!.title = 'Search';
    writeFileSync(join(spec, 'topic-annotations.json'), JSON.stringify(edited));
    expect(await run([...args, '--check'])).toBe(1);
  });

  it('bundleSchema keeps each referenced definition once, under the name the types use', () => {
    const refs = new RefResolver(loadSpec(SPEC, 'v0.1.6'));
    const s = bundleSchema(refs, 'topics/edit-find.params.schema.json');
    expect(Object.keys(s.$defs as object)).toEqual(['Glob']);
    expect(JSON.stringify(s)).not.toContain('idea-protocol.invalid');
  });
});
