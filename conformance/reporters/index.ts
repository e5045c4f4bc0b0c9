// Reporter registry for `--reporter name[:path]`.
import { ConsoleReporter } from './console';
import { GitHubReporter } from './github';
import { HtmlReporter } from './html';
import { JsonReporter } from './json';
import { JUnitReporter } from './junit';
import { MarkdownReporter } from './markdown';
import type { Reporter } from './types';

export type { Reporter, RunStartInfo, RunSummary } from './types';
export { ConsoleReporter, GitHubReporter, HtmlReporter, JsonReporter, JUnitReporter, MarkdownReporter };

export interface ReporterOptions {
  /** Path given after the name (`junit:out.xml`), if any. */
  path?: string;
  fixturesDir?: string;
  verbose?: boolean;
}

/** Without a path a file reporter writes into the current directory (where the state file goes too). */
export const DEFAULT_REPORT_FILES = {
  json: 'conformance.json',
  junit: 'conformance.xml',
  markdown: 'conformance.md',
  html: 'conformance.html',
} as const;

/** `--reporter <name>[:path]` → reporter. A new reporter is one file and one line here. */
const REPORTERS: Readonly<Record<string, (o: ReporterOptions) => Reporter>> = {
  console: (o) => new ConsoleReporter({ verbose: o.verbose, fixturesDir: o.fixturesDir }),
  json: (o) => new JsonReporter(o.path || DEFAULT_REPORT_FILES.json),
  junit: (o) => new JUnitReporter(o.path || DEFAULT_REPORT_FILES.junit, o.fixturesDir),
  github: (o) => new GitHubReporter(o.fixturesDir),
  html: (o) => new HtmlReporter(o.path || DEFAULT_REPORT_FILES.html, o.fixturesDir),
  // Without a path: appended to the GitHub step summary when there is one, else ./conformance.md.
  markdown: (o) => {
    if (o.path) return new MarkdownReporter(o.path, false, o.fixturesDir);
    const summary = process.env.GITHUB_STEP_SUMMARY;
    return summary
      ? new MarkdownReporter(summary, true, o.fixturesDir)
      : new MarkdownReporter(DEFAULT_REPORT_FILES.markdown, false, o.fixturesDir);
  },
};

export const REPORTER_NAMES = Object.keys(REPORTERS);

/** `console`, `github`, `html[:out.html]`, `json[:out.json]`, `junit[:out.xml]`, `markdown[:summary.md]` (file reporters default to ./conformance.{html,json,xml,md}; markdown without a path appends to $GITHUB_STEP_SUMMARY when set). */
export function createReporter(spec: string, opts: { fixturesDir?: string; verbose?: boolean } = {}): Reporter {
  const i = spec.indexOf(':');
  const name = i < 0 ? spec : spec.slice(0, i);
  const path = i < 0 ? undefined : spec.slice(i + 1);
  const factory = Object.hasOwn(REPORTERS, name) ? REPORTERS[name] : undefined;
  if (!factory) throw new Error(`unknown reporter "${name}" (known: ${REPORTER_NAMES.join(', ')})`);
  return factory({ ...opts, path });
}
