// frameText/frameBytes: every shape a socket library hands a message over in reads the same.
import { describe, expect, it } from 'vitest';
import { frameBytes, frameText } from '../../runtime/frame-text';

const TEXT = '{"topic":"/app/vscode/edit/find","q":"é✓"}';
const bytes = Buffer.from(TEXT, 'utf8');
const padded = Buffer.concat([Buffer.from('xx'), bytes, Buffer.from('yy')]);

describe('frameText', () => {
  it.each([
    ['a string', TEXT],
    ['a Buffer', bytes],
    ['fragments (Buffer[])', [bytes.subarray(0, 5), bytes.subarray(5, 31), bytes.subarray(31)]],
    ['an ArrayBuffer', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)],
    ['a view into a larger buffer', new Uint8Array(padded.buffer, padded.byteOffset + 2, bytes.length)],
  ])('reads %s', (_w, data) => {
    expect(frameText(data)).toBe(TEXT);
    expect(frameBytes(data).equals(bytes)).toBe(true);
  });

  it('reads invalid UTF-8 leniently (replacement characters, no throw)', () => {
    expect(frameText(Buffer.from([0x7b, 0xff, 0x7d]))).toBe('{\ufffd}');
  });
});
