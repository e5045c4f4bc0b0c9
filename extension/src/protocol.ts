// Where the extension takes the protocol version it serves: handlers, the server and the error helper
// take the generated session, handler types, wire types and tables through here. The version itself is
// spec/served.json's (generated/current.ts); serving another one is that line and `npm run codegen`.
export * from '../../generated/current';
