// One edit/find over a folder, in a fresh process, for huge-line.bench.ts: bundled with esbuild (as the
// extension is) and run as `node probe.mjs <folder> <literal|regex> <maxLineBytes> <workerScript>`.
// Prints {ms, totalCount, error?, maxRssMB} — peak RSS of the whole process, regex workers included.
import { configureLimits } from '../../server-core/limits/config';
import { disposeRegexPool, regexPool, setRegexWorkerScript } from '../../server-core/search/regex-pool';
import { searchText } from '../../server-core/search/text-search';

const [folder, mode, maxLineBytes, script] = process.argv.slice(2);
setRegexWorkerScript(script!);
configureLimits({ maxLineBytes: Number(maxLineBytes) });
regexPool().prewarm();
await new Promise((r) => setTimeout(r, 200)); // the warm worker is up, as in the extension
const t0 = performance.now();
let out: Record<string, unknown>;
try {
  const r = await searchText({
    rg: process.env.IDEA_RG ?? 'rg',
    folders: [{ root: folder!, selection: { excludes: [], useIgnoreFiles: true } }],
    match: { pattern: 'needle', isRegex: mode === 'regex', isCaseSensitive: false },
    dirty: [],
    maxMatches: 5000,
  });
  out = { ms: performance.now() - t0, totalCount: r.totalCount };
} catch (e) {
  out = { ms: performance.now() - t0, error: (e as Error).message.slice(0, 160) };
}
disposeRegexPool();
console.log(JSON.stringify({ ...out, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
