// Shape checks on a parsed HTTP body (a JSON-RPC message or a batch of them).
function messages(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

function hasMethod(m: unknown, method?: string): boolean {
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof (m as { method?: unknown }).method === 'string' &&
    (method === undefined || (m as { method: string }).method === method)
  );
}

export function isInitializeRequest(body: unknown): boolean {
  return messages(body).some((m) => hasMethod(m, 'initialize'));
}

export function isRequest(body: unknown): boolean {
  return messages(body).some((m) => hasMethod(m));
}
