// Where the core takes the protocol version it serves: the generated handler types, wire types, tables
// and ProtocolError. The version is spec/served.json's (generated/current.ts), the extension's too.
export * from '../generated/current';
