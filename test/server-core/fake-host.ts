// A CoreHost for unit tests: plain folders, editor documents as a list, language features given per
// test, local history in a temp folder, a log kept in memory.
import { join } from 'node:path';
import type { CoreHost, LanguageFeatures } from '../../server-core/host';

export interface FakeHost extends CoreHost {
  docs: { path: string; text: string; dirty: boolean }[];
  logged: string[];
  caughtUp: string[];
}

export function fakeHost(
  root: string,
  opts: { language?: Partial<LanguageFeatures>; recordsSave?: boolean } = {},
): FakeHost {
  const docs: FakeHost['docs'] = [];
  const logged: string[] = [];
  const caughtUp: string[] = [];
  const refuse = () => Promise.reject(new Error('not in this test'));
  return {
    docs,
    logged,
    caughtUp,
    folders: {
      paths: () => [join(root, 'ws')],
      searchSettings: () => ({ filesExclude: undefined, searchExclude: undefined, useIgnoreFiles: true }),
    },
    documents: {
      dirty: () => docs.filter((d) => d.dirty).map((d) => ({ path: d.path, text: () => d.text })),
      isDirty: (path) => docs.some((d) => d.path === path && d.dirty),
      text: (path) => docs.find((d) => d.path === path)?.text,
      afterWrite: async (path) => void caughtUp.push(path),
    },
    language: {
      definition: refuse,
      references: refuse,
      documentSymbols: refuse,
      diagnostics: refuse,
      allDiagnostics: () => [],
      ...opts.language,
    },
    localHistory: { home: join(root, 'History'), recordsSave: () => opts.recordsSave ?? true },
    limits: { values: () => ({}) },
    tools: { ripgrep: 'rg', stateDir: join(root, 'state'), log: (m) => void logged.push(m) },
  };
}
