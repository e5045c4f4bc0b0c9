// Running git on a repository someone else may have written into (a workspace a client can edit, the
// fixture workspace a server under test can edit, a maintainer's clone): nothing the repository's own
// configuration names may run. Command-line `-c` settings beat every config file; the environment
// drops inherited GIT_* variables. Used by the extension (extension/src/git.ts), the conformance
// workspace builder and spec-tools.

/** `-c` overrides for every git call: hooks, fsmonitor, pager, credential helpers, transports, signatures off. */
export const DISARMING_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null', // no hook can run
  'core.fsmonitor=false', // fsmonitor is a command git runs on index refresh
  'core.pager=cat',
  'credential.helper=', // empty: resets the helper list
  'protocol.allow=never', // no transport at all, so no ssh, askpass or lazy fetch
  'log.showSignature=false', // would run gpg
  'core.quotepath=off',
];

/** DISARMING_CONFIG as command-line arguments, to put before the git subcommand. */
export const DISARMING_ARGS: readonly string[] = DISARMING_CONFIG.flatMap((c) => ['-c', c]);

/** Environment for git: this process's, minus every inherited GIT_* and askpass variable, plus ours. */
export function disarmedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k === 'SSH_ASKPASS' || k === 'PAGER' || k === 'EDITOR' || k === 'VISUAL') continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_LITERAL_PATHSPECS: '1', // a file named `*.ts` or `:(glob)x` means itself
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0', // reads never write .git/index
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_NO_LAZY_FETCH: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    LC_ALL: 'C',
    ...extra,
  };
}
