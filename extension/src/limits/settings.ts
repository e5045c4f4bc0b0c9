// The core's LimitSettings (server-core/host.ts) over the user's settings (machine scope): a workspace's
// own .vscode/settings.json must never be able to raise them, so only the user (global) value counts.
import * as vscode from 'vscode';
import type { LimitSettings } from '../../../server-core/host';
import { LIMIT_RANGES } from '../../../server-core/limits/config';

export const vscodeLimitSettings: LimitSettings = {
  values() {
    const values: Record<string, unknown> = {};
    for (const [key, r] of Object.entries(LIMIT_RANGES)) {
      const dot = r.setting.lastIndexOf('.');
      const i = vscode.workspace.getConfiguration(r.setting.slice(0, dot)).inspect<number>(r.setting.slice(dot + 1));
      values[key] = i?.globalValue;
    }
    return values;
  },
  onChange(listener) {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (Object.values(LIMIT_RANGES).some((r) => e.affectsConfiguration(r.setting))) listener();
    });
    return () => sub.dispose();
  },
};
