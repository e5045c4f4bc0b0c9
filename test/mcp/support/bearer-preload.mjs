// Loaded with `node --import` into the official MCP conformance suite, which has no option for request
// headers: its requests to idea-mcp (the SDK client's fetch, and undici.request in the DNS-rebinding
// scenario) carry `Authorization: Bearer $IDEA_MCP_BEARER`. Nothing else changes: Host and Origin are
// still the suite's own, so idea-mcp's loopback checks are what the rebinding scenario sees.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const token = process.env.IDEA_MCP_BEARER;
const origin = process.env.IDEA_MCP_ORIGIN; // e.g. http://127.0.0.1:7300
if (!token || !origin) throw new Error('bearer-preload: IDEA_MCP_BEARER and IDEA_MCP_ORIGIN are required');
const ours = (url) => String(url).startsWith(origin);

const plainFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
  if (!ours(url)) return plainFetch(input, init);
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set('authorization', `Bearer ${token}`);
  return plainFetch(input, { ...init, headers });
};

// The suite's own undici (the one its scenarios import) reads the global dispatcher.
const suite = process.env.IDEA_MCP_CONFORMANCE_DIR;
const require = createRequire(join(suite, 'package.json'));
const undici = await import(pathToFileURL(require.resolve('undici')).href);
undici.setGlobalDispatcher(
  new undici.Agent().compose((dispatch) => (opts, handler) => {
    if (!ours(`${opts.origin}`)) return dispatch(opts, handler);
    const headers = Array.isArray(opts.headers)
      ? Object.fromEntries(
          Array.from({ length: opts.headers.length / 2 }, (_, i) => [opts.headers[2 * i], opts.headers[2 * i + 1]]),
        )
      : { ...(opts.headers ?? {}) };
    return dispatch({ ...opts, headers: { ...headers, authorization: `Bearer ${token}` } }, handler);
  }),
);
