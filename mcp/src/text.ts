// The text content of a tool result: what a person reads. The `idea` CLI's formatters are meant to
// provide it (branch issue-13-cli: `formatResult(topic, result, { color })` in cli/src/format.ts); until
// that branch is merged this is pretty-printed JSON. When it lands, the body becomes
// `return formatResult(topic, result, { color: false });` — nothing else changes.
export function resultText(topic: string, result: unknown): string {
  void topic;
  return JSON.stringify(result, null, 2);
}
