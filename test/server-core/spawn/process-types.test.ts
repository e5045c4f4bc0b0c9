import { expect, it } from 'vitest';
import { childEnv } from '../../../server-core/spawn/process-types';

it("childEnv keeps the caller's strings only, and defaults to this process's environment", () => {
  expect(childEnv({ A: 'x', B: undefined })).toEqual({ A: 'x' });
  expect(childEnv(undefined).PATH).toBe(process.env.PATH);
  expect(childEnv({})).toEqual({});
});
