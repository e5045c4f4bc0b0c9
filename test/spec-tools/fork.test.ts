// idea-spec on a protocol fork without idea-kit's codegen (a scratch copy of spec/ alone, no
// node_modules): bump, release and amend take --no-codegen; without it they refuse before writing
// anything. And nothing is written inside node_modules (an installed package's copy of the spec).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { specVersions } from '@idea-kit/spec-lib/spec';
import { nextPatch } from '@idea-kit/spec-lib/version';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../spec-tools/cli';
import { REPO, scratchRepo } from './scratch';

let scratch: ReturnType<typeof scratchRepo> | undefined;
afterEach(() => scratch?.dispose());

async function idea(root: string, ...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main([...args, '--root', root], (s) => {
    out += s;
  });
  return { code, out };
}

/** Every file's text under root/spec and root/docs: what a refused run must leave as it was. */
function snapshot(root: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(`${p}\n${readFileSync(p, 'utf8')}`);
    }
  };
  walk(join(root, 'spec'));
  walk(join(root, 'docs'));
  return files.sort().join('\n');
}

describe('idea-spec on a fork without our codegen', () => {
  it('bump, release and amend refuse without --no-codegen before writing anything, and work with it', async () => {
    scratch = scratchRepo(['spec']);
    const root = scratch.root;
    const latest = specVersions(join(root, 'spec')).at(-1)!;
    const next = nextPatch(latest);

    let before = snapshot(root);
    await expect(idea(root, 'bump', '--force')).rejects.toThrow(/has no codegen to run.*--no-codegen/);
    expect(snapshot(root)).toBe(before);
    expect((await idea(root, 'bump', '--force', '--no-codegen')).out).toContain(`created spec/v${next}`);

    writeFileSync(join(root, 'spec', `v${next}`, 'SUMMARY.md'), "A fork's first version.\n");
    // The copy keeps its base's description, which may call it a draft: release refuses that text.
    const indexJson = join(root, 'spec', `v${next}`, 'index.json');
    const doc = JSON.parse(readFileSync(indexJson, 'utf8')) as { description: string };
    writeFileSync(
      indexJson,
      `${JSON.stringify({ ...doc, description: `A fork of the IDEA protocol, v${next}.` }, null, 2)}\n`,
    );
    before = snapshot(root);
    await expect(idea(root, 'release', next)).rejects.toThrow(/has no codegen to run.*--no-codegen/);
    expect(snapshot(root)).toBe(before);
    const released = await idea(root, 'release', next, '--no-codegen', '--date', '2026-11-25');
    expect(released.code).toBe(0);
    expect(released.out).toMatch(new RegExp(`^released ${next.replace(/\./g, '\\.')} \\(2026-11-25\\)`));
    expect(released.out).not.toContain('generated generated/');
    expect(readFileSync(join(root, 'docs', 'CHANGELOG.md'), 'utf8')).toContain(`## ${next} — 2026-11-25`);

    const index = join(root, 'spec', `v${next}`, 'defs.schema.json');
    writeFileSync(index, readFileSync(index, 'utf8').replace('"Shared definitions', '"The shared definitions'));
    before = snapshot(root);
    await expect(idea(root, 'amend', next, '--reason', 'wording', '--allow-semantic')).rejects.toThrow(
      /has no codegen to run/,
    );
    expect(snapshot(root)).toBe(before);
    expect((await idea(root, 'amend', next, '--reason', 'wording', '--allow-semantic', '--no-codegen')).out).toMatch(
      new RegExp(`^amended ${next.replace(/\./g, '\\.')}`),
    );
    expect(
      JSON.parse(readFileSync(join(root, 'spec', 'releases.json'), 'utf8')).releases.at(-1).amendments,
    ).toHaveLength(1);
  }, 60_000);

  it('writes nothing inside node_modules: the writing commands refuse, diff and the checks still read', async () => {
    scratch = scratchRepo([]);
    const installed = join(scratch.root, 'node_modules', '@idea-kit', 'spec-tools', 'dist');
    mkdirSync(installed, { recursive: true });
    cpSync(join(REPO, 'spec'), join(installed, 'spec'), { recursive: true });
    const latest = specVersions(join(installed, 'spec')).at(-1)!;
    const before = snapshot(installed);
    for (const args of [
      ['bump', '--force', '--no-codegen'],
      ['changelog'],
      ['release', latest, '--no-codegen'],
      ['amend', latest, '--reason', 'x', '--no-codegen'],
      ['derive-history', '--force'],
    ]) {
      await expect(idea(installed, ...args), args.join(' ')).rejects.toThrow(/inside node_modules/);
    }
    expect(snapshot(installed)).toBe(before);
    expect(existsSync(join(installed, 'docs'))).toBe(false);
    expect((await idea(installed, 'diff', '0.1.5', '0.1.6')).code).toBe(0);
  }, 60_000);
});
