// Validates every frame a server sends against the spec's schemas of the protocol version the server
// announced in its handshake: an older server is held to its own version's schemas (a v0.1.2
// handshake has no authRequired), not to the newest. The validator tables and the reading of a frame
// (handshake reply or response, which schema applies) are the ones the generated client uses
// (generated/versions.ts, runtime/frames.ts).
import { loadFrameValidators, NEWEST_VERSION } from '../../generated/versions';
import { type FrameValidators, serverFrameProblem } from '../../runtime/frames';

export interface FrameChecker {
  /** The version whose schemas are used (the newest one here when the server's is unknown). */
  readonly version: string;
  /** Whether that version defines `topic` (only such a topic can be "unimplemented"). */
  defines(topic: string): boolean;
  /** null when the frame is valid, else one line saying what is wrong. */
  check(text: string): string | null;
}

const checkers = new Map<string, Promise<FrameChecker>>();

function checkerOf(frames: FrameValidators): FrameChecker {
  return {
    version: frames.version,
    defines: (topic) => frames.results.has(topic),
    check: (text) => serverFrameProblem(frames, text),
  };
}

/** The checker for a server that announced `version`; versions without generated code here fall back to the newest. */
export function frameCheckerFor(version: string): Promise<FrameChecker> {
  const v = loadFrameValidators(version) ? version : NEWEST_VERSION;
  let checker = checkers.get(v);
  if (!checker) {
    checker = loadFrameValidators(v)!.then(checkerOf);
    checkers.set(v, checker);
  }
  return checker;
}
