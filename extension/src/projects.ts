// LanguageFeatures.projects over VS Code (clause T47): the core finds the projects and names one file of
// each; opening that file as a document (no tab) makes VS Code's TypeScript extension open it in
// tsserver, which loads the file's project (for a solution-style tsconfig, the referenced project that
// holds the file); the project is loaded once tsserver's semantic server answers for the file
// (ts-server.ts). tsserver then searches it for references, renames and workspace symbols.
import type { ProjectLoader } from '../../server-core/host';
import { openDocument } from './documents';
import { noLanguageServer } from './language-answer';
import { hasNoLanguageServer } from './language-server';
import { semanticServerReady } from './ts-server';

/**
 * Files opened at once. tsserver answers one request at a time anyway (VS Code's client sends the next
 * once the last is answered); more in flight would only hold more documents open at the same moment.
 */
const LOADS_AT_ONCE = 4;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function loadOne(path: string, signal: AbortSignal): Promise<string | undefined> {
  if (signal.aborted) return 'not loaded: the request ended first';
  let doc: Awaited<ReturnType<typeof openDocument>>;
  try {
    doc = await openDocument(path);
  } catch (e) {
    return `could not be opened: ${messageOf(e)}`;
  }
  if (hasNoLanguageServer(doc)) return noLanguageServer(doc).unavailable;
  const why = await semanticServerReady(doc, signal);
  if (why) return why.unavailable;
  return signal.aborted ? 'not loaded: the request ended first' : undefined;
}

export const vscodeProjects: ProjectLoader = {
  async load(files, signal) {
    const failed: { path: string; reason: string }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const path = files[next++]!;
        const reason = await loadOne(path, signal);
        if (reason) failed.push({ path, reason });
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOADS_AT_ONCE, files.length) }, worker));
    // In the order asked, whatever order the loads ended in.
    const order = new Map(files.map((f, i) => [f, i]));
    return failed.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  },
};
