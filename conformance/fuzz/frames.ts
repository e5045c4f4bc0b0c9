// Malformed frames around the generated requests, judged as the spec (T7, T8, T9, R5) and the protocol/
// fixtures say: one envelope field broken at a time (requestId missing, not a string, empty or very long;
// topic missing, not a string or unknown; extra top-level fields), text that is not JSON, and JSON that is
// not an object. The frame is a template (the request's own topic and params, shrunk as params are); the run
// gives it its requestId.
import fc from 'fast-check';
import { isObject } from '../../runtime/frames';
import type { FrameRule, FuzzInput, MalformedFrame } from './input';

/** What the answer to a malformed frame must be (an error with this code, echoing these), or `request` when it is answered as the request it carries. */
export type FrameExpect =
  | { code: 'PARSE_ERROR' | 'INVALID_REQUEST' | 'UNKNOWN_TOPIC'; topic: string[]; requestId: string[] }
  | { request: true; topic: string; requestId: string; alsoInvalid: boolean };

export const UNKNOWN_TOPIC = '/app/vscode/edit/teleport';

const NOT_JSON = [
  '{"topic": "/app/vscode/edit/find", ',
  '',
  ' ',
  'not json',
  '{',
  '}',
  "{'topic': 'x'}",
  '{"topic":"x",}',
  'undefined',
  'NaN',
  '\u0000',
  '\uFEFF{}x',
];
const NOT_OBJECT = ['[1,2,3]', 'null', '"a string"', '42', 'true', '[]', '[{"topic":"x","requestId":"y"}]'];

function parsesToObject(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

/** A malformed frame wrapped around each input `base` generates. */
export function malformedArb(base: fc.Arbitrary<FuzzInput>): fc.Arbitrary<FuzzInput> {
  const frame: fc.Arbitrary<MalformedFrame> = fc.oneof(
    fc
      .constantFrom<FrameRule>(
        'requestId-missing',
        'requestId-not-string',
        'requestId-empty',
        'topic-missing',
        'topic-not-string',
        'topic-unknown',
        'extra-fields',
      )
      .map((rule): MalformedFrame => ({ rule })),
    fc.integer({ min: 1000, max: 100_000 }).map((size): MalformedFrame => ({ rule: 'requestId-long', size })),
    fc
      .oneof(
        { arbitrary: fc.constantFrom(...NOT_JSON), weight: 3 },
        { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
      )
      .filter((t) => !parsesToObject(t))
      .map((text): MalformedFrame => {
        let json = true;
        try {
          JSON.parse(text);
        } catch {
          json = false;
        }
        return { rule: json ? 'not-object' : 'not-json', text };
      }),
    fc.constantFrom(...NOT_OBJECT).map((text): MalformedFrame => ({ rule: 'not-object', text })),
  );
  // Params stay an object (a non-object one is its own INVALID_REQUEST, which a server may check first).
  return fc.tuple(base, frame).map(([input, f]): FuzzInput => {
    if (isObject(input.params)) return { ...input, frame: f };
    return { topic: input.topic, params: {}, frame: f };
  });
}

/** The frame sent for `input` (which has a `frame`) with `requestId`, and what its answer must be. */
export function buildFrame(input: FuzzInput, requestId: string): { text: string; expect: FrameExpect } {
  const f = input.frame!;
  const { topic, params } = input;
  const err = (code: 'PARSE_ERROR' | 'INVALID_REQUEST' | 'UNKNOWN_TOPIC', t: string[], r: string[]) => ({
    code,
    topic: t,
    requestId: r,
  });
  const json = (o: unknown) => JSON.stringify(o);
  switch (f.rule) {
    case 'requestId-missing':
      return { text: json({ topic, params }), expect: err('INVALID_REQUEST', [topic, ''], ['']) };
    case 'requestId-not-string':
      return { text: json({ topic, requestId: 42, params }), expect: err('INVALID_REQUEST', [topic, ''], ['']) };
    case 'requestId-empty':
      return { text: json({ topic, requestId: '', params }), expect: err('INVALID_REQUEST', [topic, ''], ['']) };
    case 'requestId-long': {
      const id = `${requestId}-${'x'.repeat(Math.max(0, (f.size ?? 1000) - requestId.length - 1))}`;
      return {
        text: json({ topic, requestId: id, params }),
        expect: { request: true, topic, requestId: id, alsoInvalid: false },
      };
    }
    case 'topic-missing':
      return { text: json({ requestId, params }), expect: err('INVALID_REQUEST', [''], [requestId, '']) };
    case 'topic-not-string':
      return { text: json({ topic: 42, requestId, params }), expect: err('INVALID_REQUEST', [''], [requestId]) };
    case 'topic-unknown':
      return {
        text: json({ topic: UNKNOWN_TOPIC, requestId, params }),
        expect: err('UNKNOWN_TOPIC', [UNKNOWN_TOPIC], [requestId]),
      };
    case 'extra-fields':
      return {
        text: json({ topic, requestId, params, id: 1, method: 'x', result: {} }),
        expect: { request: true, topic, requestId, alsoInvalid: true },
      };
    case 'not-json':
    case 'not-object':
      return { text: f.text ?? '', expect: err('PARSE_ERROR', [''], ['']) };
  }
}

/** The requestIds an answer to the frame may carry (the run waits for the first frame with one of them). */
export function answerIds(expect: FrameExpect): string[] {
  return 'request' in expect ? [expect.requestId] : expect.requestId;
}

/** The frame as an exchange fixture step (`send` an object, or `sendText`), with the id the case uses. */
export function frameStep(input: FuzzInput, requestId: string): { send: unknown } | { sendText: string } {
  const { text } = buildFrame(input, requestId);
  const f = input.frame!;
  return f.rule === 'not-json' || f.rule === 'not-object' ? { sendText: text } : { send: JSON.parse(text) };
}
