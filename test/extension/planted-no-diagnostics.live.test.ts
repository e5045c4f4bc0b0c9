// Issue 32's "done means": the event cases fail a server that never pushes an event. Planted in the real
// thing: our extension, built as shipped, with one line changed in its bundle so that its event sources
// never emit diagnostics/changed (it still advertises the event), run in a live VS Code against the
// diagnostics cases. Each must fail, never pass or come out "unimplemented"; a files/changed case run
// beside them passes, so the failures are the plant's and not a broken host.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWithLaunch } from '../../conformance/launch';
import { loadCases } from '../../conformance/lib/load';
import type { CaseResult } from '../../conformance/lib/types';
import { HOST_NAMES } from '../../livehost/hosts';
import { buildTarget } from '../../scripts/build';
import { EXTENSION_DIR } from './helpers';

/** The method of server-core/events/sources.ts every diagnostics/changed event goes through. */
const EMITTER = 'diagnosticsChanged(files, quiet = false) {';
const CONTROL = 'events/files-changed-names-written-file';

const tmp = mkdtempSync(join(tmpdir(), 'idea-planted-ext-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the built extension whose diagnostics/changed source returns at once. */
async function plantedExtension(): Promise<string> {
  await buildTarget('extension');
  const dir = join(tmp, 'extension');
  cpSync(join(EXTENSION_DIR, 'package.json'), join(dir, 'package.json'));
  cpSync(join(EXTENSION_DIR, 'dist'), join(dir, 'dist'), { recursive: true });
  const bundle = join(dir, 'dist', 'extension.cjs');
  const text = readFileSync(bundle, 'utf8');
  expect(text.split(EMITTER).length - 1, `the bundle has one ${EMITTER}`).toBe(1);
  writeFileSync(bundle, text.replace(EMITTER, `${EMITTER} return;`));
  return dir;
}

describe('an extension that never emits diagnostics/changed (planted)', () => {
  // clause T36: a server that advertises diagnostics/changed but never pushes it fails the event cases.
  it('fails every diagnostics event case; files/changed still passes', { timeout: 240_000 }, async () => {
    const extension = await plantedExtension();
    const diagnosticsCases = loadCases().filter(
      (lc) => lc.case.kind === 'exchange' && lc.case.events?.includes('/app/vscode/diagnostics/changed'),
    );
    // The cases that need an event to arrive (initial-only cases may pass on an empty set).
    const needEvent = diagnosticsCases.filter((lc) => !lc.case.id.includes('initial'));
    expect(needEvent.length).toBeGreaterThanOrEqual(3);
    const control = loadCases().filter((lc) => lc.case.id === CONTROL);
    expect(control).toHaveLength(1);
    const results: CaseResult[] = [];
    await runWithLaunch({
      vscode: HOST_NAMES[0],
      extensionDevPath: extension,
      cases: [...needEvent, ...control],
      reporters: [{ onCaseEnd: (r: CaseResult) => void results.push(r) }],
    });
    const verdicts = Object.fromEntries(results.map((r) => [r.id, r.verdict]));
    expect(verdicts[CONTROL]).toBe('pass');
    for (const lc of needEvent) expect(verdicts[lc.case.id], lc.case.id).toBe('fail');
  });
});
