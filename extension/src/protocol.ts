// The one place the extension names the protocol version it serves: handlers, the server and the
// error helper take the generated session, handler types, wire types and tables through here, so
// serving another version is a change to this line (and whatever the compiler then points at).
export * from '../../generated/v0.1.6/server';
