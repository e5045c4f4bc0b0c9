// Applies the limit settings the host reads (idea.server.limits.*, user scope only) now and whenever
// they change, logging what is in force.
import type { LimitSettings } from '../host';
import { configureLimits, type Limits } from './config';

/** Returns the unsubscribe of the change listener (a no-op when the settings are fixed). */
export function applyLimitSettings(settings: LimitSettings, log: (m: string) => void): () => void {
  const apply = () => {
    const l = configureLimits(settings.values() as Partial<Record<keyof Limits, unknown>>);
    log(
      `limits: ${Object.entries(l)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
    );
  };
  apply();
  return settings.onChange?.(apply) ?? (() => {});
}
