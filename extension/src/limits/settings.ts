// Reads the limits from the user's settings (machine scope): a workspace's own .vscode/settings.json
// must never be able to raise them, so only the user (global) value or the default counts.
import * as vscode from 'vscode';
import { configureLimits, LIMIT_RANGES, type Limits } from './config';

export function limitsFromSettings(): Readonly<Limits> {
  const values: Partial<Record<keyof Limits, unknown>> = {};
  for (const [key, r] of Object.entries(LIMIT_RANGES) as [keyof Limits, (typeof LIMIT_RANGES)[keyof Limits]][]) {
    const dot = r.setting.lastIndexOf('.');
    const i = vscode.workspace.getConfiguration(r.setting.slice(0, dot)).inspect<number>(r.setting.slice(dot + 1));
    values[key] = i?.globalValue;
  }
  return configureLimits(values);
}

/** Applies the settings now and whenever they change; returns the listener's disposable. */
export function watchLimitSettings(log: (m: string) => void): vscode.Disposable {
  const apply = () => {
    const l = limitsFromSettings();
    log(
      `limits: ${Object.entries(l)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
    );
  };
  apply();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (Object.values(LIMIT_RANGES).some((r) => e.affectsConfiguration(r.setting))) apply();
  });
}
