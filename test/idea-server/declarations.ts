// Type-level only (checked by `npm run typecheck`, nothing runs): the shipped declarations of
// @idea-kit/server (idea-server/index.d.ts; the package has no sources) against the sources. Values:
// the source must satisfy each declaration; shapes: the same both ways.
import type * as Shipped from '../../idea-server/index';
import type * as Source from '../../idea-server/src/index';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

declare const source: typeof Source;
export const values: Omit<typeof Shipped, never> = source;

export const shapes: [
  Same<Source.ServerCommand, Shipped.ServerCommand>,
  Same<Source.ServerArgs, Shipped.ServerArgs>,
  Same<Source.ServeOptions, Shipped.ServeOptions>,
  Same<Source.ServedWorkspace, Shipped.ServedWorkspace>,
  Same<Source.HeadlessOptions, Shipped.HeadlessOptions>,
  Same<Source.Headless, Shipped.Headless>,
] = [true, true, true, true, true, true];
