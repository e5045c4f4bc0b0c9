// Released versions are frozen: the check passes on the repository and fails on any edit of a
// released folder (changed, added or removed file), while unreleased versions stay editable.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFrozen, hashVersionFolder, readReleases, recordRelease } from '../../spec-tools/frozen';
import { writeHistory } from '../../spec-tools/history/write';
import { listVersions } from '../../spec-tools/spec-repo';
import { REPO, scratchRepo } from './scratch';

let scratch: ReturnType<typeof scratchRepo> | undefined;
afterEach(() => scratch?.dispose());

function scratchSpec(): string {
  scratch = scratchRepo(['spec']);
  return join(scratch.root, 'spec');
}

describe('frozen released versions', () => {
  it('the repository matches spec/releases.json, which lists every version up to 0.1.5', () => {
    expect(checkFrozen(join(REPO, 'spec'))).toEqual([]);
    const released = readReleases(join(REPO, 'spec')).releases.map((r) => r.version);
    expect(released).toEqual(expect.arrayContaining(['0.1.0', '0.1.1', '0.1.2', '0.1.3', '0.1.4', '0.1.5']));
  });

  it('an edited schema of a released version fails the check, naming the version', () => {
    const spec = scratchSpec();
    const file = join(spec, 'v0.1.3', 'messages', 'handshake-request.schema.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"type"', '"kind"'));
    const problems = checkFrozen(spec);
    expect(problems.map((p) => p.version)).toEqual(['0.1.3']);
    expect(problems[0]!.message).toContain('changed after its release');
  });

  it('an added or removed file fails it too; a whitespace-only CRLF checkout does not', () => {
    const spec = scratchSpec();
    writeFileSync(join(spec, 'v0.1.2', 'topics', 'extra.params.schema.json'), '{}\n');
    rmSync(join(spec, 'v0.1.4', 'topics', 'fs-findfiles.result.schema.json'));
    const crlf = join(spec, 'v0.1.0', 'index.json');
    writeFileSync(crlf, readFileSync(crlf, 'utf8').replace(/\n/g, '\r\n'));
    expect(checkFrozen(spec).map((p) => p.version)).toEqual(['0.1.2', '0.1.4']);
  });

  it('a missing released folder fails it', () => {
    const spec = scratchSpec();
    rmSync(join(spec, 'v0.1.1'), { recursive: true });
    expect(checkFrozen(spec).map((p) => p.message)).toEqual(['released version folder spec/v0.1.1 is missing']);
  });

  it('release records the hash; re-releasing changed contents needs --force', () => {
    const spec = scratchSpec();
    const newest = listVersions(spec).at(-1)!;
    const entry = recordRelease(spec, newest);
    expect(entry.sha256).toBe(hashVersionFolder(join(spec, `v${newest}`)));
    expect(checkFrozen(spec)).toEqual([]);
    appendFileSync(join(spec, `v${newest}`, 'index.json'), ' ');
    expect(checkFrozen(spec).map((p) => p.version)).toEqual([newest]);
    expect(() => recordRelease(spec, newest)).toThrow(/already released/);
    recordRelease(spec, newest, { force: true });
    expect(checkFrozen(spec)).toEqual([]);
  });

  it('derive-history leaves released folders alone unless forced, and then rewrites them identically', () => {
    const spec = scratchSpec();
    const before = hashVersionFolder(join(spec, 'v0.1.3'));
    writeFileSync(join(spec, 'v0.1.3', 'stray.json'), '{}\n');
    expect(writeHistory(spec)).toContain('skip v0.1.3: released (frozen); --force rewrites it');
    expect(checkFrozen(spec).map((p) => p.version)).toEqual(['0.1.3']);
    expect(writeHistory(spec, { force: true })).toContain('wrote spec/v0.1.3');
    expect(hashVersionFolder(join(spec, 'v0.1.3'))).toBe(before);
    expect(checkFrozen(spec)).toEqual([]);
  });
});
