// clause T48: an answer that is empty because no language server could answer says why, with the host's
// kind (or `none` when the host cannot tell) and its reason; an empty answer from a server that answered,
// or an answer with something in it, carries no `unavailable`. Results are validated against the schemas.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LanguageFeatures, Unavailable } from '../../../server-core/host';
import { coreSession } from '../core-session';
import { fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-unavailable-'));
const ws = join(root, 'ws');
mkdirSync(ws, { recursive: true });
const ts = join(ws, 'a.ts');
const md = join(ws, 'b.md');
writeFileSync(ts, 'export const a = 1;\n');
writeFileSync(md, '# b\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DOWN: Unavailable = { unavailable: 'language server unavailable for typescript: it crashed', kind: 'down' };
const NONE: Unavailable = { unavailable: 'no language server is configured for .md files' };

/** Every language feature unavailable (as `u`), or answering with nothing. */
function language(u: Unavailable | undefined): LanguageFeatures {
  const or = <T>(x: T) => (async () => u ?? x) as never;
  return {
    definition: or([]),
    references: or([]),
    documentSymbols: or([]),
    diagnostics: or([]),
    allDiagnostics: () => [],
    hover: or({ contents: [] }),
    typeDefinition: or([]),
    implementation: or([]),
  };
}

const at = { filePath: ts, line: 0, character: 13 };
const TOPICS: [string, object][] = [
  ['nav/definition', at],
  ['nav/references', at],
  ['nav/hover', at],
  ['nav/typeDefinition', at],
  ['nav/implementation', at],
  ['nav/symbols', { filePath: ts }],
  ['diag/list', { filePath: ts }],
];

describe('T48: an empty answer says why', () => {
  it.each(TOPICS)('%s: unavailable with the kind and reason', async (topic, params) => {
    const { ask } = coreSession(fakeHost(root, { language: language(DOWN) }));
    const { result, error } = await ask(topic, params);
    expect(error).toBeUndefined();
    expect(result?.unavailable).toEqual({ kind: 'down', reason: DOWN.unavailable });
  });

  it.each(TOPICS)('%s: a host that cannot tell the kind says none', async (topic, params) => {
    const { ask } = coreSession(fakeHost(root, { language: language(NONE) }));
    expect((await ask(topic, params)).result?.unavailable).toEqual({ kind: 'none', reason: NONE.unavailable });
  });

  it.each(TOPICS)('%s: a server that answered nothing leaves it out', async (topic, params) => {
    const { ask } = coreSession(fakeHost(root, { language: language(undefined) }));
    const { result } = await ask(topic, params);
    expect(result).toBeDefined();
    expect(result).not.toHaveProperty('unavailable');
  });

  it('diag/list over several files: only an empty answer carries it', async () => {
    const diag = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      message: 'x',
      severity: 0,
    };
    const host = (tsAnswer: LanguageFeatures['diagnostics']) =>
      fakeHost(root, {
        language: { ...language(undefined), diagnostics: async (p, s) => (p === md ? NONE : tsAnswer(p, s)) },
      });
    const some = await coreSession(host(async () => [diag])).ask('diag/list', { filePath: [ts, md] });
    expect(some.result).toMatchObject({ totalCount: 1 });
    expect(some.result).not.toHaveProperty('unavailable');
    const none = await coreSession(host(async () => [])).ask('diag/list', { filePath: [ts, md] });
    expect(none.result).toEqual({
      diagnostics: [],
      totalCount: 0,
      unavailable: { kind: 'none', reason: NONE.unavailable },
    });
  });
});
