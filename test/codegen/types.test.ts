// The generated types compile under the project's strict settings and agree with the topic index
// and the schemas: a type-test file is generated from index.json (per version) and checked with
// tsc --noEmit. It also carries @ts-expect-error lines, so a type that stopped rejecting what the
// schema forbids fails the run too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSpec, specVersions } from '@idea-kit/spec-lib/spec';
import { versionFolder } from '@idea-kit/spec-lib/version';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'idea-types-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function typeTest(version: string): string {
  const spec = loadSpec(join(ROOT, 'spec'), version);
  const gen = join(ROOT, 'generated', version);
  const lines: string[] = [
    `import type * as T from ${JSON.stringify(join(gen, 'types'))};`,
    `import type { Handlers } from ${JSON.stringify(join(gen, 'server'))};`,
    `import { IdeaProtocolError, type IdeaClient } from ${JSON.stringify(join(gen, 'client'))};`,
    `import { PROTOCOL_VERSION } from ${JSON.stringify(join(gen, 'topics'))};`,
    'type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;',
    'type Expect<X extends true> = X;',
    `export const version: ${JSON.stringify(spec.index.version)} = PROTOCOL_VERSION;`,
    `export type TopicsAgree = Expect<Equal<T.Topic, ${spec.index.topics.map((t) => JSON.stringify(t.topic)).join(' | ')}>>;`,
    `export type ErrorCodesAgree = Expect<Equal<T.ErrorCode, ${spec.index.errorCodes.map((e) => JSON.stringify(e.code)).join(' | ')}>>;`,
    '// @ts-expect-error a topic that is not in the index',
    `export type NotATopic = Expect<Equal<T.Topic, T.Topic | "/app/vscode/not/a/topic">>;`,
    // IdeaProtocolError.code is the version's ErrorCode, also after an instanceof narrowing.
    `export type ProtocolErrorCode = Expect<Equal<IdeaProtocolError["code"], T.ErrorCode>>;`,
    'export function narrowed(e: unknown): T.ErrorCode | undefined {',
    '  if (!(e instanceof IdeaProtocolError)) return undefined;',
    '  // @ts-expect-error a code that is not in the index',
    '  if (e.code === "NOT_A_CODE") return undefined;',
    '  return e.code;',
    '}',
    '// @ts-expect-error constructing with a code that is not in the index',
    'export const badCode = new IdeaProtocolError("NOT_A_CODE", "m", "", "");',
  ];
  spec.index.topics.forEach((t, i) => {
    const topic = JSON.stringify(t.topic);
    const P = `T.${t.typeName}Params`;
    const R = `T.${t.typeName}Result`;
    lines.push(
      `export type Method${i} = Expect<Equal<T.MethodOf<${topic}>, ${JSON.stringify(t.method)}>>;`,
      `export type Params${i} = Expect<Equal<T.ParamsOf<${topic}>, ${P}>>;`,
      `export type Result${i} = Expect<Equal<T.ResultOf<${topic}>, ${R}>>;`,
      // A topic the session serves itself has no handler (and must not: a handler could not serve it).
      t.servedBy === 'session'
        ? `export type Handler${i} = Expect<Equal<${JSON.stringify(t.method)} extends keyof Handlers ? true : false, false>>;`
        : `export type Handler${i} = Expect<Equal<ReturnType<Handlers[${JSON.stringify(t.method)}]>, Promise<${R}>>>;`,
      `export type Client${i} = Expect<Equal<ReturnType<IdeaClient[${JSON.stringify(t.method)}]>, Promise<${R}>>>;`,
    );
    const schema = spec.byPath.get(t.params)!.schema as { required?: string[]; properties?: Record<string, unknown> };
    for (const key of schema.required ?? []) {
      lines.push(
        `export type Required${i}_${key} = Expect<Equal<{} extends Pick<${P}, ${JSON.stringify(key)}> ? "optional" : "required", "required">>;`,
      );
    }
    for (const key of Object.keys(schema.properties ?? {}).filter((k) => !(schema.required ?? []).includes(k))) {
      lines.push(
        `export type Optional${i}_${key} = Expect<Equal<{} extends Pick<${P}, ${JSON.stringify(key)}> ? "optional" : "required", "optional">>;`,
      );
    }
    if ((schema.required ?? []).length > 0) {
      lines.push('// @ts-expect-error required params missing', `export const missing${i}: ${P} = {};`);
    }
  });
  return `${lines.join('\n')}\n`;
}

describe('generated runtime tables', () => {
  for (const v of specVersions(join(ROOT, 'spec')).map(versionFolder)) {
    it(`${v}: TOPICS, ERROR_CODES, TRANSPORT and PROTOCOL_VERSION match the index`, async () => {
      const spec = loadSpec(join(ROOT, 'spec'), v);
      const t = (await import(
        pathToFileURL(join(ROOT, 'generated', v, 'topics.ts')).href
      )) as typeof import('../../generated/v0.1.6/topics');
      expect(t.PROTOCOL_VERSION).toBe(spec.index.version);
      expect(t.TRANSPORT).toEqual(spec.index.transport);
      expect(t.ERROR_CODES).toEqual(
        spec.index.errorCodes.map(({ code, since, description }) => ({ code, since, description })),
      );
      const events = (t as { EVENTS?: unknown }).EVENTS;
      expect(events).toEqual(
        spec.index.events?.map(({ event, name, since, direction, description }) => ({
          event,
          name,
          since,
          direction,
          description,
        })),
      );
      expect(t.TOPICS).toEqual(
        spec.index.topics.map(({ topic, method, since, errors, description }) => ({
          topic,
          method,
          since,
          errors,
          description,
        })),
      );
    });
  }
});

describe('generated types', () => {
  it("compile strictly and agree with every version's index and schemas", () => {
    const files = specVersions(join(ROOT, 'spec'))
      .map(versionFolder)
      .map((v) => {
        const f = join(tmp, `types-${v}.ts`);
        writeFileSync(f, typeTest(v));
        return f;
      });
    const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    const tsconfig = join(tmp, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: { ...base.compilerOptions, typeRoots: [join(ROOT, 'node_modules', '@types')] },
        files: [
          ...files,
          ...specVersions(join(ROOT, 'spec'))
            .map(versionFolder)
            .flatMap((v) =>
              ['types.ts', 'topics.ts', 'server.ts', 'client.ts'].map((f) => join(ROOT, 'generated', v, f)),
            ),
        ],
      }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig], {
        encoding: 'utf8',
      });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe('');
  }, 120_000);

  it('the type test itself can fail: a wrong assertion is reported by tsc', () => {
    const f = join(tmp, 'wrong.ts');
    const gen = join(ROOT, 'generated', 'v0.1.6');
    writeFileSync(
      f,
      `import type * as T from ${JSON.stringify(join(gen, 'types'))};\n` +
        'type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;\n' +
        'type Expect<X extends true> = X;\n' +
        'export type Wrong = Expect<Equal<T.MethodOf<"/app/vscode/edit/find">, "editReplace">>;\n',
    );
    const tsconfig = join(tmp, 'tsconfig.wrong.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          moduleResolution: 'Bundler',
          module: 'ESNext',
          target: 'ES2022',
          skipLibCheck: true,
          types: [],
        },
        files: [f],
      }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig], {
        encoding: 'utf8',
      });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toMatch(/wrong\.ts\(4,\d+\): error TS2344/);
  }, 120_000);
});
