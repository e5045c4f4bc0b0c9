// The text content of a tool result: what a person (or a model reading text) gets, the `idea` CLI's
// human output for the topic (result-text/format.ts: find/references/diagnostics as path:line:col lines,
// symbols as an outline, history as a table, diffs as unified text), without colour and with absolute
// paths. structuredContent carries the protocol result itself. Unlike the CLI, an empty answer is never
// an empty text: it says what was found empty (empty-text.ts). A write's text ends with how to undo it.
import { formatResult } from '@idea-kit/result-text/format';
import { type Asked, emptyText } from './empty-text';

export function resultText(topic: string, result: unknown, asked: Asked = { params: {} }): string {
  const sentence = emptyText(topic, result, asked);
  if (sentence !== undefined) return sentence;
  const text = formatResult(topic, result, { color: false, params: asked.params });
  // A formatter with nothing to print for a shape not foreseen above.
  if (text.trim() === '') return `Nothing to show: ${topic} answered an empty result (see structuredContent).`;
  return `${text}${undoLine(result)}`;
}

/** After a write (since 0.1.8): how to take it back, by the transactionId its answer carries. */
function undoLine(result: unknown): string {
  const tx =
    typeof result === 'object' && result !== null ? (result as { transactionId?: unknown }).transactionId : undefined;
  return typeof tx === 'string' ? `\nTo undo it: edit_undo with transactionId "${tx}".` : '';
}
