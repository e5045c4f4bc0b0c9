// Puts the extension under test into a run's --extensions-dir: either an unpacked folder linked as
// <publisher>.<name>-<version> (enough for VS Code to pick it up), or a .vsix that code-server installed
// there itself (what a user installs), found afterwards by its manifest.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface LinkedExtension {
  id: string;
  version: string;
  folder: string;
  link: string;
}

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

/** The one extension a fresh run's extensions folder holds after `--install-extension` (a real folder, not a link). */
export function installedExtension(extensionsDir: string): LinkedExtension {
  const folders = readdirSync(extensionsDir).filter(
    (n) => !n.startsWith('.') && lstatSync(join(extensionsDir, n)).isDirectory(),
  );
  if (folders.length !== 1)
    throw new Error(
      `expected one installed extension in ${extensionsDir}, found ${folders.length}: ${folders.join(', ')}`,
    );
  const folder = join(extensionsDir, folders[0]!);
  const m = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  return { id: `${m.publisher}.${m.name}`, version: m.version, folder, link: folder };
}
