// Soak sizes: how many times a loop that costs seconds per turn (a SIGKILL and a restart of VS Code, a
// fuzzing run timed in seconds) goes round. The README's test command runs the default size, enough to
// reach every kind of moment the test aims at; `npm run test:full` (IDEA_TEST_FULL=1) runs the full
// size, as the soak the test was written for. The test's check is the same at both sizes.
export const FULL_ENV = 'IDEA_TEST_FULL';

/** True under `npm run test:full`. */
export const fullSize = (): boolean => process.env[FULL_ENV] === '1';

/** `full` under `npm run test:full`, else `quick`. */
export function soak<T>(quick: T, full: T): T {
  return fullSize() ? full : quick;
}
