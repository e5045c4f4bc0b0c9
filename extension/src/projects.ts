// LanguageFeatures.projects over VS Code (clause T47): the core finds the projects and names one file of
// each; opening that file as a document (no tab) makes VS Code's TypeScript extension open it in
// tsserver, which loads the file's project (for a solution-style tsconfig, the referenced project that
// holds the file); the project is loaded once tsserver's semantic server answers for the file
// (ts-server.ts), within a time budget. tsserver then searches it for references, renames and
// workspace symbols. The core asks one file at a time, a few at once, and waits for them only
// PROJECT_LOAD_MS (server-core/projects.ts): a load it stopped waiting for goes on, for the next request.
import type { ProjectLoader } from '../../server-core/host';
import { openDocument } from './documents';
import { noLanguageServer } from './language-answer';
import { hasNoLanguageServer, LANGUAGE_TIMEOUT_MS } from './language-server';
import { semanticServerReady } from './ts-server';

/**
 * Files opened at once. tsserver answers one request at a time anyway (VS Code's client sends the next
 * once the last is answered); more in flight would only hold more documents open at the same moment.
 */
const LOADS_AT_ONCE = 4;

/**
 * One load's time, shared by its files: tsserver loads one project at a time, so a file waits for the
 * projects queued before its own; past the budget the load says what was not loaded (tsserver goes on
 * loading it, for the next request).
 */
export const LOAD_BUDGET_MS = LANGUAGE_TIMEOUT_MS;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function loadOne(path: string, signal: AbortSignal, end: number): Promise<string | undefined> {
  if (signal.aborted) return 'not loaded: the request ended first';
  const late = `not loaded within the ${LOAD_BUDGET_MS / 1000} s a request gives loading projects (VS Code's TypeScript server goes on loading it: ask again)`;
  if (Date.now() >= end) return late;
  let doc: Awaited<ReturnType<typeof openDocument>>;
  try {
    doc = await openDocument(path);
  } catch (e) {
    return `could not be opened: ${messageOf(e)}`;
  }
  if (hasNoLanguageServer(doc)) return noLanguageServer(doc).unavailable;
  const why = await semanticServerReady(doc, signal, end);
  if (why) return why.kind === 'loading' && Date.now() >= end ? late : why.unavailable;
  return signal.aborted ? 'not loaded: the request ended first' : undefined;
}

export const vscodeProjects: ProjectLoader = {
  async load(files, signal) {
    const failed: { path: string; reason: string }[] = [];
    const end = Date.now() + LOAD_BUDGET_MS;
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const path = files[next++]!;
        const reason = await loadOne(path, signal, end);
        if (reason) failed.push({ path, reason });
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOADS_AT_ONCE, files.length) }, worker));
    // In the order asked, whatever order the loads ended in.
    const order = new Map(files.map((f, i) => [f, i]));
    return failed.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  },
};
