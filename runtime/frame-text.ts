// The text of a WebSocket message, whatever shape the socket library hands it over in: a string
// (WHATWG WebSocket text frames), a Buffer, a Buffer[] (ws fragments), an ArrayBuffer or a view.
// Binary frames are read as UTF-8 text too (lenient, like the protocol's servers).

export function frameText(data: unknown): string {
  if (typeof data === 'string') return data;
  return frameBytes(data).toString('utf8');
}

/** The bytes of a WebSocket message (a proxy forwards them unchanged); a string is UTF-8 encoded. */
export function frameBytes(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Uint8Array[]);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(String(data), 'utf8');
}
