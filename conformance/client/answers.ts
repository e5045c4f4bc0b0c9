// What the scripted servers answer: results valid for their topic's result schema in every version the
// scenarios speak (test/conformance/client/scenarios.test.ts checks them against each), each one naming
// the request it answers, so that an answer reported against the wrong request never passes for right.

/** The workspace folder every scripted server announces. */
export const WORKSPACE = '/workspace/idea-conformance';

const short = (topic: string) => topic.replace(/^\/app\/vscode\//, '');

/** The topics the scenarios ask for: each has a result here. */
export const ANSWERED_TOPICS = [
  '/app/vscode/edit/find',
  '/app/vscode/nav/definition',
  '/app/vscode/diag/list',
  '/app/vscode/fs/findFiles',
] as const;

/** A result for `topic` that says it answers request `n` (1-based, the order of the requests array). */
export function resultFor(topic: string, n: number): Record<string, unknown> {
  const filePath = `${WORKSPACE}/src/answer-${n}.ts`;
  switch (short(topic)) {
    case 'edit/find':
      return { matches: [{ filePath, line: n, character: 2, lineText: `  answer(${n});` }], totalCount: 1 };
    case 'nav/definition':
      return {
        locations: [
          {
            filePath,
            line: n,
            character: 0,
            endLine: n + 2,
            endCharacter: 1,
            code: `function answer${n}() {\n  return ${n};\n}`,
          },
        ],
      };
    case 'diag/list':
      return {
        diagnostics: [
          {
            filePath,
            line: n,
            character: 4,
            endLine: n,
            endCharacter: 10,
            severity: 'warning',
            message: `answer ${n} is unused`,
            source: 'idea-conformance',
            code: String(6133 + n),
          },
        ],
        totalCount: 1,
      };
    case 'fs/findFiles':
      return { files: [{ fileName: `answer-${n}.ts`, filePath, relativePath: `src/answer-${n}.ts` }], totalCount: 1 };
    default:
      throw new Error(`the scripted servers have no result for ${topic}`);
  }
}

/**
 * An edit/find result that makes a frame of exactly `bytes` bytes with an envelope of `envelope` bytes
 * (`{topic, requestId, result}` less the result): matches of 200-character lines, as many as fit, the
 * last line lengthened by what is left.
 */
export function largeFindResult(n: number, bytes: number, envelope: number): Record<string, unknown> {
  const filePath = `${WORKSPACE}/src/answer-${n}.ts`;
  const match = (line: number, text: string) => ({ filePath, line, character: 0, lineText: text });
  const text = `answer ${n} `.padEnd(200, 'x');
  // The widest match (line numbers of 7 digits) so that `count` of them always fit.
  const widest = JSON.stringify(match(9_999_999, text)).length + 1;
  const room = bytes - envelope - JSON.stringify({ matches: [], totalCount: 9_999_999 }).length;
  const count = Math.max(1, Math.floor(room / widest));
  const matches = Array.from({ length: count }, (_, i) => match(i, text));
  const left = bytes - envelope - JSON.stringify({ matches, totalCount: count }).length;
  matches[count - 1] = match(count - 1, text + 'x'.repeat(Math.max(0, left)));
  return { matches, totalCount: count };
}

/** A files/changed event's data (0.1.7 on). */
export function filesChanged(n: number): Record<string, unknown> {
  return { changes: [{ filePath: `${WORKSPACE}/src/event-${n}.ts`, change: 'changed' }] };
}
