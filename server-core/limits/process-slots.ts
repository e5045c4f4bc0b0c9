// One fair limiter for every child process the extension starts (rg now, git too), across all clients:
// a flood of requests queues here instead of forking thousands of processes at once.
import { limits, onLimitsChanged } from './config';
import { FairLimiter } from './fair-limiter';

const processes = new FairLimiter(limits().maxChildProcesses);
onLimitsChanged((l) => processes.setCapacity(l.maxChildProcesses));

/**
 * Runs `fn` (which starts one child process and settles when it has exited) holding a process slot of
 * the client `signal` belongs to (see bindClient). Waits its turn; rejects with the signal's reason
 * when the request is aborted while queued.
 */
export function withProcessSlot<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  return processes.run(signal, fn);
}

/** Slots in use and calls waiting, for logs and tests. */
export function processSlotStats(): { active: number; queued: number; clients: number } {
  return processes.stats;
}
