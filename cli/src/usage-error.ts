// A mistake on the command line (exit 2), naming the flag or argument; its own module so that every
// parser (args.ts, fix.ts) throws the one kind.
import type { CommandSpec } from './commands';

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command the mistake was made in (its help is pointed to). */
  constructor(
    message: string,
    readonly command?: CommandSpec,
  ) {
    super(message);
  }
}
