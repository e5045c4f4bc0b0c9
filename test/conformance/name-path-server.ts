// An in-test v0.1.8 server for the name-path fuzz tests: nav/symbols, nav/findSymbol and nav/definition over
// a fixed symbol tree said to be src/shapes.ts (overloads, names with "/" and "[", a class in a namespace),
// name paths matched as clause T43 says with runtime/name-path.ts, and one planted flaw at a time.
import { isAbsolute, relative, resolve } from 'node:path';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.8/server';
import type { SymbolKind } from '../../generated/v0.1.8/types';
import { createIdeaServer } from '../../runtime/idea-server';
import { escapeName, NamePathError, parseNamePath } from '../../runtime/name-path';
import { ServerProtocol } from '../../runtime/server-session';

export const NAME_PATH_TOKEN = '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';

export type NamePathPlant =
  // a malformed name path refused without saying at which character
  | 'where-missing'
  // own name paths without [i], so an overload's is ambiguous
  | 'own-unindexed'
  // a relative name path matched from the top of the file, as if absolute
  | 'anchored-suffix'
  // nav/findSymbol bodies of maxAnswerChars characters each, whatever the budget
  | 'budget-ignored'
  // nav/definition takes namePath with line and character (its params unchecked, the first form used)
  | 'both-forms-accepted';

interface Sym {
  name: string;
  kind: SymbolKind;
  line: number;
  children?: Sym[];
}

/** The file the tree is said to be (a file of the fixture workspace, so nav/symbols of it is asked). */
export const NAMED_FILE = 'src/shapes.ts';

const TREE: Sym[] = [
  {
    name: 'Ledger',
    kind: 'class',
    line: 1,
    children: [
      { name: 'record', kind: 'method', line: 2 },
      { name: 'record', kind: 'method', line: 3 },
      { name: 'record', kind: 'method', line: 4 },
      { name: "'in/out'", kind: 'method', line: 5 },
      { name: "'[total]'", kind: 'method', line: 6 },
    ],
  },
  {
    name: 'Audit',
    kind: 'module',
    line: 8,
    children: [{ name: 'Entry', kind: 'class', line: 9, children: [{ name: 'describe', kind: 'method', line: 10 }] }],
  },
  { name: 'parse', kind: 'function', line: 12 },
  { name: 'parse', kind: 'function', line: 13 },
  { name: 'grüße', kind: 'function', line: 14 },
];

/** A symbol with its chain from the top: each link's name and its index among same-named siblings. */
interface Placed {
  sym: Sym;
  chain: { name: string; index: number; alone: boolean }[];
  depth: number;
}

function place(syms: readonly Sym[], above: Placed['chain'] = [], out: Placed[] = []): Placed[] {
  for (const sym of syms) {
    const same = syms.filter((s) => s.name === sym.name);
    const chain = [...above, { name: sym.name, index: same.indexOf(sym), alone: same.length === 1 }];
    out.push({ sym, chain, depth: chain.length });
    if (sym.children) place(sym.children, chain, out);
  }
  return out;
}
const PLACED = place(TREE);

export async function startNamePathServer(root: string, plant?: NamePathPlant) {
  const abs = (p: string) => {
    const a = resolve(root, p);
    const rel = relative(root, a);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new ProtocolError('INVALID_REQUEST', `outside the workspace: ${p}`);
    return a;
  };
  const served = (p: string) => abs(p) === resolve(root, NAMED_FILE);
  const own = (p: Placed) =>
    `/${p.chain.map((l) => `${escapeName(l.name)}${l.alone || plant === 'own-unindexed' ? '' : `[${l.index}]`}`).join('/')}`;
  const match = (text: string): Placed[] => {
    let parsed: ReturnType<typeof parseNamePath>;
    try {
      parsed = parseNamePath(text);
    } catch (e) {
      if (!(e instanceof NamePathError)) throw e;
      throw new ProtocolError(
        'INVALID_REQUEST',
        plant === 'where-missing' ? `malformed name path: ${e.problem}` : e.message,
      );
    }
    const absolute = parsed.absolute || plant === 'anchored-suffix';
    return PLACED.filter((p) => {
      const { segments } = parsed;
      if (absolute ? p.chain.length !== segments.length : p.chain.length < segments.length) return false;
      const tail = p.chain.slice(p.chain.length - segments.length);
      return segments.every(
        (s, i) => tail[i]!.name === s.name && (s.index === undefined || tail[i]!.index === s.index),
      );
    });
  };
  const range = (p: Placed) => ({
    name: p.sym.name,
    kind: p.sym.kind,
    line: p.sym.line,
    character: 0,
    endLine: p.sym.line,
    endCharacter: 20,
    selectionLine: p.sym.line,
    selectionCharacter: 0,
  });
  const handlers: Partial<Handlers> = {
    async navSymbols({ filePath }) {
      const symbols = served(filePath)
        ? PLACED.map((p) => ({ ...range(p), containerName: p.chain.at(-2)?.name ?? null }))
        : [];
      return { symbols, totalCount: symbols.length };
    },
    async navFindSymbol({ namePath, filePath, depth, includeBody, maxResults, maxAnswerChars }) {
      const here = filePath === undefined || served(filePath);
      const found = here ? match(namePath) : [];
      const symbols = found.slice(0, maxResults).map((p) => {
        const children = PLACED.filter(
          (c) => c.depth > p.depth && c.depth <= p.depth + depth && own(c).startsWith(`${own(p)}/`),
        ).map((c) => ({ ...range(c), namePath: own(c), level: c.depth - p.depth, signature: c.sym.name }));
        return {
          ...range(p),
          namePath: own(p),
          filePath: resolve(root, NAMED_FILE),
          signature: p.sym.name,
          ...(depth > 0 ? { children } : {}),
          ...(includeBody && plant === 'budget-ignored' ? { body: 'x'.repeat(maxAnswerChars) } : {}),
        };
      });
      const answer = { symbols, totalCount: found.length, truncated: found.length > symbols.length };
      // The budget (T46), unless planted: the signatures form, then the counts form.
      if (plant === 'budget-ignored' || JSON.stringify({ ...answer, form: 'symbols' }).length <= maxAnswerChars)
        return { ...answer, form: 'symbols' };
      const signatures = symbols.map(({ children: _c, body: _b, ...s }) => s);
      if (JSON.stringify({ ...answer, symbols: signatures, form: 'signatures' }).length <= maxAnswerChars)
        return { ...answer, symbols: signatures, form: 'signatures' };
      const files = found.length ? [{ filePath: resolve(root, NAMED_FILE), count: found.length }] : [];
      return { ...answer, symbols: [], files, form: 'counts' };
    },
    async navDefinition(params) {
      abs(params.filePath);
      if (params.namePath !== undefined && (params.line === undefined || plant !== 'both-forms-accepted')) {
        const found = served(params.filePath) ? match(params.namePath) : [];
        if (found.length !== 1)
          throw new ProtocolError('INVALID_REQUEST', `${params.namePath} names ${found.length} symbols, not one`);
      }
      return { locations: [] };
    },
  };
  const { spec } = SERVER_PROTOCOL;
  const DEFINITION = '/app/vscode/nav/definition';
  const protocol =
    plant === 'both-forms-accepted'
      ? new ServerProtocol({
          ...spec,
          frames: {
            ...spec.frames,
            params: new Map(
              [...spec.frames.params].map(([t, v]) => [
                t,
                t === DEFINITION
                  ? Object.assign((p: unknown) => typeof p === 'object' && p !== null, { errors: null })
                  : v,
              ]),
            ),
          },
        })
      : SERVER_PROTOCOL;
  const server = await createIdeaServer({
    protocol,
    port: 0,
    handlers: () => handlers,
    auth: { required: true, token: NAME_PATH_TOKEN },
    workspaces: () => [root],
  });
  return { url: server.url, close: () => server.close() };
}
