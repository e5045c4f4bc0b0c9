// The spec the CLI is built from, read as the build (scripts/build.ts) reads it.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandsFromSpec } from '../../cli/src/commands';
import { PROTOCOL_VERSION } from '../../cli/src/protocol';
import { loadSpecDir } from '../../cli/src/spec';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SPEC = loadSpecDir(join(REPO, 'spec', `v${PROTOCOL_VERSION}`));
export const CMDS = commandsFromSpec(SPEC);
