import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newAjv, readJson, SPEC_ROOT } from './load-spec';

// The per-version index rules (agrees with index.schema.json, its folder, the error-code enum, names
// derived from the topic) are lint rules: test/spec/schemas.test.ts runs them on every version.

describe('spec/index.schema.json', () => {
  it('compiles in strict mode and rejects a malformed index', () => {
    const validate = newAjv().compile(readJson(join(SPEC_ROOT, 'index.schema.json')));
    expect(validate({ version: '0.1.6' })).toBe(false);
    expect(validate({})).toBe(false);
  });
});

describe('spec/v0.1.6/index.json facts', () => {
  const index = readJson(join(SPEC_ROOT, 'v0.1.6', 'index.json'));
  it("matches the protocol's transport, topics and versions", () => {
    expect(index.released).toBe('2026-03-02');
    expect(index.transport).toEqual({ defaultPort: 7200, portAttempts: 10 });
    const since = Object.fromEntries(index.topics.map((t: any) => [t.topic.replace('/app/vscode/', ''), t.since]));
    expect(since).toEqual({
      'edit/find': '0.1.0',
      'edit/replace': '0.1.0',
      'nav/definition': '0.1.0',
      'nav/references': '0.1.0',
      'diag/list': '0.1.2',
      'nav/symbols': '0.1.2',
      'history/list': '0.1.4',
      'history/diff': '0.1.4',
      'fs/findFiles': '0.1.4',
      'history/rollback': '0.1.5',
      'localhistory/list': '0.1.6',
      'localhistory/diff': '0.1.6',
      'localhistory/rollback': '0.1.6',
    });
    expect(Object.fromEntries(index.errorCodes.map((e: any) => [e.code, e.since]))).toEqual({
      PARSE_ERROR: '0.1.0',
      INVALID_REQUEST: '0.1.0',
      UNKNOWN_TOPIC: '0.1.0',
      HANDLER_ERROR: '0.1.0',
      UNAUTHORIZED: '0.1.3',
    });
  });
});
