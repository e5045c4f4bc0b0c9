// runtime/loopback, runtime/token and runtime/validation-message: the small policy helpers.
import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost } from '../../runtime/loopback';
import { tokensEqual } from '../../runtime/token';
import { describeValidationError, fieldPath } from '../../runtime/validation-message';

describe('loopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.1:7200', true],
    ['localhost:7200', true],
    ['LOCALHOST', true],
    ['[::1]:7200', true],
    ['[::1]', true],
    ['evil.example', false],
    ['127.0.0.1.evil.example', false],
    ['localhost.evil.example:80', false],
    ['127.0.0.1:99999', false],
    ['', false],
    [undefined, false],
    ['0.0.0.0:7200', false],
  ])('isLoopbackHost(%s) = %s', (host, ok) => expect(isLoopbackHost(host)).toBe(ok));

  it.each([
    [undefined, true],
    ['http://127.0.0.1', true],
    ['http://localhost:5173', true],
    ['https://[::1]:8443', true],
    ['null', false],
    ['file://', false],
    ['https://example.com', false],
    ['http://localhost.example.com', false],
    ['http://127.0.0.1@evil.example', false],
    ['vscode-webview://x', false],
  ])('isAllowedOrigin(%s) = %s', (origin, ok) => expect(isAllowedOrigin(origin)).toBe(ok));

  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['192.168.1.2', false],
    ['::', false],
  ])('isLoopbackAddress(%s) = %s', (h, ok) => expect(isLoopbackAddress(h)).toBe(ok));
});

describe('tokensEqual', () => {
  it('compares whole tokens', () => {
    expect(tokensEqual('abc-123', 'abc-123')).toBe(true);
    expect(tokensEqual('abc-123', 'abc-124')).toBe(false);
    expect(tokensEqual('abc-123', 'abc')).toBe(false);
    expect(tokensEqual('abc', 'abc-123')).toBe(false);
    expect(tokensEqual('', '')).toBe(true);
  });
});

describe('validation messages', () => {
  it('builds field paths', () => {
    expect(fieldPath('result', '/matches/0/line')).toBe('result.matches[0].line');
    expect(fieldPath('', '/requestId')).toBe('requestId');
    expect(fieldPath('params', '')).toBe('params');
    expect(fieldPath('params', '/a~1b')).toBe('params.a/b');
  });

  it('describes the decisive error', () => {
    const type = (p: string, t: string) => ({
      instancePath: p,
      keyword: 'type',
      params: { type: t },
      message: `must be ${t}`,
    });
    expect(describeValidationError([type('/line', 'integer')], 'params')).toBe('params.line must be integer');
    expect(
      describeValidationError([{ instancePath: '', keyword: 'required', params: { missingProperty: 'x' } }], 'params'),
    ).toBe('params.x is required');
    expect(
      describeValidationError(
        [
          type('/filePath', 'string'),
          type('/filePath', 'array'),
          { instancePath: '/filePath', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
        ],
        'params',
      ),
    ).toBe('params.filePath must be string or array');
    // One branch had the right type but failed otherwise: that branch's error is the precise one.
    expect(
      describeValidationError(
        [
          {
            instancePath: '/filePath',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          },
          type('/filePath', 'array'),
          { instancePath: '/filePath', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
        ],
        'params',
      ),
    ).toBe('params.filePath must NOT have fewer than 1 characters');
    expect(
      describeValidationError(
        [{ instancePath: '/severity', keyword: 'enum', params: { allowedValues: ['a', 'b'] } }],
        'params',
      ),
    ).toBe('params.severity must be one of "a", "b"');
    expect(describeValidationError(null, 'params')).toBe('params is invalid');
  });
});
