// A stack of cleanups: each launch stage registers its own as soon as it has started something, and
// close() runs them newest first, so a failure at any stage tears down exactly what was started, in
// the right order. A step that has closed is never killed again (its pids may have been reused).

export interface TeardownStep {
  /** For logs, e.g. "code-server". */
  name: string;
  /** Graceful, bounded; errors are logged, never thrown. */
  close(): Promise<void> | void;
  /** Synchronous last resort at process exit (signals only, no waiting). */
  killSync?(): void;
}

export class Teardown {
  private readonly steps: TeardownStep[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly log: (line: string) => void = () => {}) {}

  /** Registers `step`; it runs before every step registered earlier. */
  add(step: TeardownStep): void {
    this.steps.push(step);
  }

  /** True once close() has been called (a launch in progress should stop and close again). */
  get started(): boolean {
    return this.closing !== undefined;
  }

  /** Runs every registered step, newest first. Calling it again also closes steps added since. */
  close(): Promise<void> {
    this.closing = (this.closing ?? Promise.resolve()).then(() => this.drain());
    return this.closing;
  }

  private async drain(): Promise<void> {
    while (this.steps.length > 0) {
      // Popped only once closed: a killSync meanwhile (second signal) still reaches it.
      const step = this.steps[this.steps.length - 1]!;
      try {
        await step.close();
      } catch (e) {
        this.log(`livehost: teardown of ${step.name} failed: ${(e as Error).message}`);
      }
      this.steps.pop();
    }
  }

  /** The steps not closed yet, killed synchronously, newest first. */
  killSync(): void {
    for (let i = this.steps.length - 1; i >= 0; i--) {
      try {
        this.steps[i]!.killSync?.();
      } catch {
        // best effort at exit
      }
    }
  }
}
