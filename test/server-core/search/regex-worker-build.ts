// The regex worker thread: tests point the pool at a test build of its bundle.
import { setRegexWorkerScript } from '../../../server-core/search/regex-pool';
import { testBundle } from '../test-bundle';

export function testRegexWorkerScript(): string {
  return testBundle('regexWorker');
}

/** Points the extension's shared pool at the test build (call before the first search). */
export function useTestRegexWorker(): void {
  setRegexWorkerScript(testRegexWorkerScript());
}
