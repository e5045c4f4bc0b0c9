// The text content of a tool result: what a person (or a model reading text) gets, the `idea` CLI's
// human output for the topic (result-text/format.ts: find/references/diagnostics as path:line:col lines,
// symbols as an outline, history as a table, diffs as unified text), without colour and with absolute
// paths. structuredContent carries the protocol result itself.
import { formatResult } from '@idea-kit/result-text/format';

export function resultText(topic: string, result: unknown): string {
  return formatResult(topic, result, { color: false });
}
