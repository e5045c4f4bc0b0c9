// Reporter registry for `--reporter name[:path]`.
import { ConsoleReporter } from './console';
import { GitHubReporter } from './github';
import { JsonReporter } from './json';
import { JUnitReporter } from './junit';
import { MarkdownReporter } from './markdown';
import type { Reporter } from './types';

export type { Reporter, RunStartInfo, RunSummary } from './types';
export { ConsoleReporter, GitHubReporter, JsonReporter, JUnitReporter, MarkdownReporter };

export const REPORTER_NAMES = ['console', 'json', 'junit', 'github', 'markdown'] as const;

/** `console`, `github`, `json:out.json`, `junit:out.xml`, `markdown:summary.md` (markdown without a path appends to $GITHUB_STEP_SUMMARY). */
export function createReporter(spec: string, opts: { fixturesDir?: string; verbose?: boolean } = {}): Reporter {
  const i = spec.indexOf(':');
  const name = i < 0 ? spec : spec.slice(0, i);
  const path = i < 0 ? undefined : spec.slice(i + 1);
  const need = () => {
    if (!path) throw new Error(`reporter ${name} needs a path: --reporter ${name}:<file>`);
    return path;
  };
  switch (name) {
    case 'console': return new ConsoleReporter({ verbose: opts.verbose });
    case 'json': return new JsonReporter(need());
    case 'junit': return new JUnitReporter(need());
    case 'github': return new GitHubReporter(opts.fixturesDir);
    case 'markdown': {
      if (path) return new MarkdownReporter(path);
      const summary = process.env.GITHUB_STEP_SUMMARY;
      if (!summary) throw new Error('reporter markdown needs a path (or GITHUB_STEP_SUMMARY)');
      return new MarkdownReporter(summary, true);
    }
    default: throw new Error(`unknown reporter "${name}" (known: ${REPORTER_NAMES.join(', ')})`);
  }
}
