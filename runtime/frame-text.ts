// The text of a WebSocket message, whatever shape the socket library hands it over in: a string
// (WHATWG WebSocket text frames), a Buffer, a Buffer[] (ws fragments), an ArrayBuffer or a view.
// Binary frames are read as UTF-8 text too (lenient, like the protocol's servers).

export function frameText(data: unknown): string {
  if (typeof data === "string") return data;
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data as Uint8Array[]).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8");
  return String(data);
}
