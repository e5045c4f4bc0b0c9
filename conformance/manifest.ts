// manifest.json: the index of every fixture case (id, file, topic, since, kind), generated from the
// case files. `npx tsx conformance/manifest.ts` writes it; `--check` fails when it is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_FIXTURES, loadCases } from './lib/load';

export function buildManifest(root = DEFAULT_FIXTURES): string {
  const cases = loadCases(root);
  const byArea: Record<string, number> = {};
  for (const lc of cases) byArea[lc.area] = (byArea[lc.area] ?? 0) + 1;
  const manifest = {
    generatedBy: 'conformance/manifest.ts (do not edit by hand)',
    protocolVersion: root.split(/[\\/]/).pop()!.replace(/^v/, ''),
    count: cases.length,
    byArea,
    cases: cases.map((lc) => ({
      id: lc.case.id,
      file: lc.file,
      kind: lc.case.kind,
      ...(lc.topic ? { topic: lc.topic } : {}),
      since: lc.case.since,
      level: lc.case.level ?? 'must',
      ...(lc.case.destructive ? { destructive: true } : {}),
      description: lc.case.description,
    })),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export function manifestPath(root = DEFAULT_FIXTURES): string {
  return join(root, 'manifest.json');
}

/** Null when manifest.json matches the case files, else what to do. */
export function checkManifest(root = DEFAULT_FIXTURES): string | null {
  let current = '';
  try {
    current = readFileSync(manifestPath(root), 'utf8');
  } catch {
    return `${manifestPath(root)} is missing: run npx tsx conformance/manifest.ts`;
  }
  return current === buildManifest(root)
    ? null
    : `${manifestPath(root)} is out of date: run npx tsx conformance/manifest.ts`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.argv.find((a, i) => i > 1 && !a.startsWith('--')) ?? DEFAULT_FIXTURES;
  if (process.argv.includes('--check')) {
    const problem = checkManifest(root);
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
    console.log('manifest.json is up to date');
  } else {
    writeFileSync(manifestPath(root), buildManifest(root));
    console.log(`wrote ${manifestPath(root)}`);
  }
}
