// User settings written before the host starts: keep an offline VS Code quiet and deterministic.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISCOVERY_KEYS } from '../runtime/discovery';

/** From the measured recipe (run-live.sh): no gallery, update, telemetry, experiments, ATA, nor VS Code's own git. */
const QUIET_OFFLINE_SETTINGS: Readonly<Record<string, unknown>> = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  // VS Code's own git extension runs git in the (trusted) workspace with the repository's configuration:
  // the fixture workspace's traps (conformance/workspace/traps.ts: fsmonitor, hooks, filters) would fire
  // through VS Code itself, which is VS Code's trust model, not what the server under test does (H19).
  'git.enabled': false,
  'git.autofetch': false,
  'git.openRepositoryInParentFolders': 'always',
  'typescript.disableAutomaticTypeAcquisition': true,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  // The local-history topics read what the workbench records here.
  'workbench.localHistory.enabled': true,
};

/** Writes <udd>/User/settings.json: quiet settings, our extension's port, then the caller's overrides. */
export function writeUserSettings(
  userDataDir: string,
  extensionPort: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  // The extension's configured port is the same key the workspace file later carries the bound port in.
  const settings = { ...QUIET_OFFLINE_SETTINGS, [DISCOVERY_KEYS.port]: extensionPort, ...overrides };
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return settings;
}
