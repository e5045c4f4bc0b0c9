// Installs an unpacked extension into a run's --extensions-dir: a symlink named <publisher>.<name>-<version>
// is enough for VS Code to pick it up (no extensions.json, no .vsix needed).
import { existsSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface LinkedExtension { id: string; version: string; folder: string; link: string }

export function linkExtension(extensionDevPath: string, extensionsDir: string): LinkedExtension {
  const folder = realpathSync(resolve(extensionDevPath));
  const manifestPath = join(folder, 'package.json');
  if (!existsSync(manifestPath)) throw new Error(`no extension manifest at ${manifestPath}`);
  let m: { publisher?: unknown; name?: unknown; version?: unknown; main?: unknown };
  try {
    m = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (e) {
    throw new Error(`unreadable extension manifest ${manifestPath}: ${(e as Error).message}`);
  }
  for (const key of ['publisher', 'name', 'version'] as const) {
    if (typeof m[key] !== 'string' || !m[key]) throw new Error(`extension manifest ${manifestPath} lacks "${key}"`);
  }
  // A missing bundle would only show up as an activation error deep in the host log: say it now.
  if (typeof m.main === 'string') {
    const main = resolve(folder, m.main);
    if (![main, `${main}.js`, `${main}.cjs`].some((p) => existsSync(p))) {
      throw new Error(`extension entry point ${main} does not exist (build the extension first)`);
    }
  }
  const id = `${m.publisher}.${m.name}`;
  const link = join(extensionsDir, `${id}-${m.version}`);
  symlinkSync(folder, link, 'dir');
  return { id, version: m.version as string, folder, link };
}
