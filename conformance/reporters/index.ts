// Reporter registry for `--reporter name[:path]`.
import { ConsoleReporter } from './console';
import { GitHubReporter } from './github';
import { JsonReporter } from './json';
import { JUnitReporter } from './junit';
import { MarkdownReporter } from './markdown';
import type { Reporter } from './types';

export type { Reporter, RunStartInfo, RunSummary } from './types';
export { ConsoleReporter, GitHubReporter, JsonReporter, JUnitReporter, MarkdownReporter };

export interface ReporterOptions {
  /** Path given after the name (`junit:out.xml`), if any. */
  path?: string;
  fixturesDir?: string;
  verbose?: boolean;
}

const needPath = (name: string, path: string | undefined): string => {
  if (!path) throw new Error(`reporter ${name} needs a path: --reporter ${name}:<file>`);
  return path;
};

/** `--reporter <name>[:path]` → reporter. A new reporter is one file and one line here. */
export const REPORTERS: Readonly<Record<string, (o: ReporterOptions) => Reporter>> = {
  console: (o) => new ConsoleReporter({ verbose: o.verbose, fixturesDir: o.fixturesDir }),
  json: (o) => new JsonReporter(needPath('json', o.path)),
  junit: (o) => new JUnitReporter(needPath('junit', o.path), o.fixturesDir),
  github: (o) => new GitHubReporter(o.fixturesDir),
  // Without a path: appended to the GitHub step summary.
  markdown: (o) => {
    if (o.path) return new MarkdownReporter(o.path, false, o.fixturesDir);
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (!summary) throw new Error('reporter markdown needs a path (or GITHUB_STEP_SUMMARY)');
    return new MarkdownReporter(summary, true, o.fixturesDir);
  },
};

export const REPORTER_NAMES = Object.keys(REPORTERS);

/** `console`, `github`, `json:out.json`, `junit:out.xml`, `markdown:summary.md` (markdown without a path appends to $GITHUB_STEP_SUMMARY). */
export function createReporter(spec: string, opts: { fixturesDir?: string; verbose?: boolean } = {}): Reporter {
  const i = spec.indexOf(':');
  const name = i < 0 ? spec : spec.slice(0, i);
  const path = i < 0 ? undefined : spec.slice(i + 1);
  const factory = Object.prototype.hasOwnProperty.call(REPORTERS, name) ? REPORTERS[name] : undefined;
  if (!factory) throw new Error(`unknown reporter "${name}" (known: ${REPORTER_NAMES.join(', ')})`);
  return factory({ ...opts, path });
}
