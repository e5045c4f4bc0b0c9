// Hand-written instances the v0.1.6 schemas must reject (and near misses they must accept).
import { describe, expect, it } from 'vitest';
import { loadVersion } from './load-spec';

const { ajv, base } = loadVersion('v0.1.6');
const check = (rel: string, instance: unknown) => {
  const validate = ajv.getSchema(base + rel);
  if (!validate) throw new Error(`no schema ${rel}`);
  return validate(instance) as boolean;
};

const W = '/home/user/project';
const P = (slug: string) => `topics/${slug}.params.schema.json`;
const R = (slug: string) => `topics/${slug}.result.schema.json`;

type Case = [schema: string, name: string, instance: unknown];

const invalid: Case[] = [
  // messages
  ['messages/handshake-request.schema.json', 'wrong type const', { type: 'hello' }],
  ['messages/handshake-request.schema.json', 'token not a string', { type: 'handshake', token: 42 }],
  [
    'messages/handshake-success.schema.json',
    'authRequired missing',
    { type: 'handshake', version: '0.1.6', capabilities: [], workspaces: [] },
  ],
  [
    'messages/handshake-success.schema.json',
    'duplicate capability',
    { type: 'handshake', version: '0.1.6', authRequired: false, capabilities: ['/a', '/a'], workspaces: [] },
  ],
  [
    'messages/handshake-success.schema.json',
    'relative workspace',
    { type: 'handshake', version: '0.1.6', authRequired: false, capabilities: [], workspaces: ['project'] },
  ],
  [
    'messages/handshake-failure.schema.json',
    'unknown error code',
    { type: 'handshake', error: { code: 'FORBIDDEN', message: 'x' } },
  ],
  ['messages/request.schema.json', 'requestId missing', { topic: '/app/vscode/edit/find' }],
  ['messages/request.schema.json', 'empty topic', { topic: '', requestId: '1' }],
  [
    'messages/request.schema.json',
    'params not an object',
    { topic: '/app/vscode/edit/find', requestId: '1', params: [] },
  ],
  ['messages/response-success.schema.json', 'result missing', { topic: '/t', requestId: '1' }],
  [
    'messages/response-error.schema.json',
    'message missing',
    { topic: '', requestId: '', error: { code: 'PARSE_ERROR' } },
  ],
  [
    'messages/response-error.schema.json',
    'requestId null',
    { topic: '', requestId: null, error: { code: 'PARSE_ERROR', message: 'x' } },
  ],
  ['messages/error-code.schema.json', 'lower-case code', 'parse_error'],
  // edit/find
  [P('edit-find'), 'pattern missing', { include: '**/*' }],
  [P('edit-find'), 'empty pattern', { pattern: '' }],
  [P('edit-find'), 'isRegex not boolean', { pattern: 'x', isRegex: 'true' }],
  [
    R('edit-find'),
    'negative line',
    { matches: [{ filePath: `${W}/a.ts`, line: -1, character: 0, lineText: '' }], totalCount: 1 },
  ],
  [
    R('edit-find'),
    'relative match path',
    { matches: [{ filePath: 'a.ts', line: 0, character: 0, lineText: '' }], totalCount: 1 },
  ],
  [R('edit-find'), 'totalCount missing', { matches: [] }],
  // edit/replace
  [P('edit-replace'), 'replacement missing', { pattern: 'a' }],
  [P('edit-replace'), 'replacement not a string', { pattern: 'a', replacement: null }],
  [R('edit-replace'), 'fractional count', { replacedCount: 1.5, affectedFiles: [] }],
  [R('edit-replace'), 'file listed twice', { replacedCount: 2, affectedFiles: [`${W}/a.ts`, `${W}/a.ts`] }],
  // nav/definition
  [P('nav-definition'), 'character missing', { filePath: 'a.ts', line: 1 }],
  [P('nav-definition'), 'negative line', { filePath: 'a.ts', line: -1, character: 0 }],
  [P('nav-definition'), 'line as string', { filePath: 'a.ts', line: '1', character: 0 }],
  [P('nav-definition'), 'empty filePath', { filePath: '', line: 0, character: 0 }],
  [
    R('nav-definition'),
    'code missing',
    { locations: [{ filePath: `${W}/a.ts`, line: 0, character: 0, endLine: 0, endCharacter: 1 }] },
  ],
  // nav/references
  [
    P('nav-references'),
    'includeDeclaration not boolean',
    { filePath: 'a.ts', line: 0, character: 0, includeDeclaration: 1 },
  ],
  [P('nav-references'), 'fractional character', { filePath: 'a.ts', line: 0, character: 0.5 }],
  [
    R('nav-references'),
    'endCharacter missing',
    { locations: [{ filePath: `${W}/a.ts`, line: 0, character: 0, endLine: 0 }], totalCount: 1 },
  ],
  // diag/list
  [P('diag-list'), 'empty filePath array', { filePath: [] }],
  [P('diag-list'), 'empty string in filePath array', { filePath: ['a.ts', ''] }],
  [P('diag-list'), 'filePath a number', { filePath: 3 }],
  [P('diag-list'), 'unknown severity', { severity: 'fatal' }],
  [
    R('diag-list'),
    'severity all in a result',
    {
      diagnostics: [
        {
          filePath: `${W}/a.ts`,
          line: 0,
          character: 0,
          endLine: 0,
          endCharacter: 1,
          severity: 'all',
          message: 'm',
          source: null,
          code: null,
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('diag-list'),
    'source omitted (nullable but required)',
    {
      diagnostics: [
        {
          filePath: `${W}/a.ts`,
          line: 0,
          character: 0,
          endLine: 0,
          endCharacter: 1,
          severity: 'error',
          message: 'm',
          code: null,
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('diag-list'),
    'numeric code',
    {
      diagnostics: [
        {
          filePath: `${W}/a.ts`,
          line: 0,
          character: 0,
          endLine: 0,
          endCharacter: 1,
          severity: 'error',
          message: 'm',
          source: 'ts',
          code: 2322,
        },
      ],
      totalCount: 1,
    },
  ],
  // nav/symbols
  [P('nav-symbols'), 'filePath missing', { query: 'x' }],
  [P('nav-symbols'), 'query not a string', { filePath: 'a.ts', query: 1 }],
  [
    R('nav-symbols'),
    'upper-case kind',
    {
      symbols: [
        {
          name: 'A',
          kind: 'Class',
          line: 0,
          character: 0,
          endLine: 1,
          endCharacter: 1,
          selectionLine: 0,
          selectionCharacter: 6,
          containerName: null,
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('nav-symbols'),
    'containerName omitted',
    {
      symbols: [
        {
          name: 'A',
          kind: 'class',
          line: 0,
          character: 0,
          endLine: 1,
          endCharacter: 1,
          selectionLine: 0,
          selectionCharacter: 6,
        },
      ],
      totalCount: 1,
    },
  ],
  // history/list
  [P('history-list'), 'maxCount 0', { filePath: 'a.ts', maxCount: 0 }],
  [P('history-list'), 'maxCount as string', { filePath: 'a.ts', maxCount: '20' }],
  [
    R('history-list'),
    'short hash of 8',
    {
      entries: [
        {
          index: 1,
          hash: '9fceb02d0ae598e95dc970b74767f19372d61af8',
          shortHash: '9fceb02d',
          message: '',
          authorName: null,
          authorEmail: null,
          authorDate: null,
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('history-list'),
    'upper-case hash',
    {
      entries: [
        {
          index: 1,
          hash: '9FCEB02D0AE598E95DC970B74767F19372D61AF8',
          shortHash: '9fceb02',
          message: '',
          authorName: null,
          authorEmail: null,
          authorDate: null,
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('history-list'),
    'index 0 (working tree is not a commit)',
    {
      entries: [
        {
          index: 0,
          hash: '9fceb02d0ae598e95dc970b74767f19372d61af8',
          shortHash: '9fceb02',
          message: '',
          authorName: null,
          authorEmail: null,
          authorDate: null,
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('history-list'),
    'authorDate not ISO 8601',
    {
      entries: [
        {
          index: 1,
          hash: '9fceb02d0ae598e95dc970b74767f19372d61af8',
          shortHash: '9fceb02',
          message: '',
          authorName: 'a',
          authorEmail: 'b',
          authorDate: 'Mon Mar 2 10:15:00 2026',
        },
      ],
      totalCount: 1,
    },
  ],
  // history/diff
  [P('history-diff'), 'fromRef starting with -', { filePath: 'a.ts', fromRef: '--output=/tmp/x', toRef: 'HEAD' }],
  [P('history-diff'), 'toRef starting with -', { filePath: 'a.ts', fromRef: 'HEAD', toRef: '-p' }],
  [P('history-diff'), 'empty ref', { filePath: 'a.ts', fromRef: '' }],
  [P('history-diff'), 'negative index', { filePath: 'a.ts', fromIndex: -1, toIndex: 1 }],
  [P('history-diff'), 'filePath missing', { fromIndex: 0, toIndex: 1 }],
  [R('history-diff'), 'diff missing', { fromRef: 'working-tree', toRef: 'abc' }],
  // history/rollback
  [P('history-rollback'), 'toIndex 0', { filePath: 'a.ts', toIndex: 0 }],
  [P('history-rollback'), 'toIndex missing', { filePath: 'a.ts' }],
  [R('history-rollback'), 'toRef not a full hash', { filePath: `${W}/a.ts`, toRef: 'HEAD~1', restoredIndex: 2 }],
  // fs/findFiles
  [P('fs-findfiles'), 'query missing', { include: '**/*.ts' }],
  [P('fs-findfiles'), 'empty query', { query: '' }],
  [P('fs-findfiles'), 'maxResults 0', { query: 'a', maxResults: 0 }],
  [
    R('fs-findfiles'),
    'relativePath with leading /',
    { files: [{ fileName: 'a.ts', filePath: `${W}/a.ts`, relativePath: '/a.ts' }], totalCount: 1 },
  ],
  // localhistory/list
  [P('localhistory-list'), 'filePath missing', {}],
  [
    R('localhistory-list'),
    'label with T separator',
    { entries: [{ id: 'IOCb.ts', timestamp: 1, timestampLabel: '2026-03-02T09:55:00' }], totalCount: 1 },
  ],
  [
    R('localhistory-list'),
    'timestamp as string',
    { entries: [{ id: 'IOCb.ts', timestamp: '1772445300000', timestampLabel: '2026-03-02 09:55:00' }], totalCount: 1 },
  ],
  // localhistory/diff
  [P('localhistory-diff'), 'neither fromId nor toId', { filePath: 'a.ts' }],
  [P('localhistory-diff'), 'empty fromId', { filePath: 'a.ts', fromId: '' }],
  [R('localhistory-diff'), 'label neither current nor a timestamp', { diff: '', fromLabel: 'now', toLabel: 'current' }],
  // localhistory/rollback
  [P('localhistory-rollback'), 'toId missing', { filePath: 'a.ts' }],
  [R('localhistory-rollback'), 'restoredLabel missing', { filePath: `${W}/a.ts`, restoredId: 'BfNB.ts' }],
];

const valid: Case[] = [
  [P('edit-find'), 'unknown params field accepted', { pattern: 'x', futureFlag: true }],
  [R('edit-find'), 'extra result field accepted', { matches: [], totalCount: 0, truncated: false }],
  [P('diag-list'), 'no params at all', {}],
  [
    P('history-diff'),
    'index and ref mode together (index wins)',
    { filePath: 'a.ts', fromIndex: 2, toIndex: 0, fromRef: 'main' },
  ],
  [P('history-diff'), 'ref with a dash inside', { filePath: 'a.ts', fromRef: 'feature-x', toRef: 'HEAD' }],
  [P('localhistory-diff'), 'toId only', { filePath: 'a.ts', toId: 'IOCb.ts' }],
  [
    R('history-list'),
    'UTC authorDate',
    {
      entries: [
        {
          index: 3,
          hash: '9fceb02d0ae598e95dc970b74767f19372d61af8',
          shortHash: '9fceb02',
          message: 'm',
          authorName: 'a',
          authorEmail: 'b',
          authorDate: '2026-03-02T01:15:00Z',
        },
      ],
      totalCount: 1,
    },
  ],
  [
    R('fs-findfiles'),
    'Windows absolute path',
    { files: [{ fileName: 'a.ts', filePath: 'C:\\w\\a.ts', relativePath: 'a.ts' }], totalCount: 1 },
  ],
  [
    'messages/response-error.schema.json',
    'empty topic and requestId',
    { topic: '', requestId: '', error: { code: 'PARSE_ERROR', message: 'x' } },
  ],
];

describe('v0.1.6 schemas reject invalid instances', () => {
  it.each(invalid)('%s: %s', (schema, _name, instance) => {
    expect(check(schema, instance)).toBe(false);
  });
});

describe('v0.1.6 schemas accept near misses', () => {
  it.each(valid)('%s: %s', (schema, _name, instance) => {
    expect(check(schema, instance)).toBe(true);
  });
});

describe('every topic has invalid cases for its params', () => {
  it('covers all 13 params schemas', () => {
    const covered = new Set(invalid.map(([s]) => s).filter((s) => s.endsWith('.params.schema.json')));
    expect(covered.size).toBe(13);
  });
});
