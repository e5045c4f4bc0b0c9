// The text content of a tool result: what a person reads. The `idea` CLI's formatters
// (cli/, `formatResult(topic, result, { color })`) are meant to provide it; until that branch is merged
// this is pretty-printed JSON. Swap the body of this one function when it lands.
export function resultText(topic: string, result: unknown): string {
  void topic;
  return JSON.stringify(result, null, 2);
}
