// The fuzz command's part of `idea-conformance --help` (here, not in cli.ts: the help must not load fast-check).
export const FUZZ_USAGE = `  idea-conformance fuzz --workspace <dir> [--url ws://…] [--token <t>] [--seed N] [--runs N | --time S]
                       [--topics edit/find,…] [--timeout MS] [--shrink-time S] [--frame-limit BYTES|find|off]
                       [--profile core,readings,security] [--out DIR] [--reporter console|json[:<file>]]
  idea-conformance fuzz --launch [--extension <dir>] [--workspace <dir>] [same options]
      Schema-driven fuzzing of a server that has the fixture workspace <dir> open (server and token found as for
      run), or of our extension launched in a live VS Code on a fresh one: params generated from each advertised
      topic's params schema, valid (edge values) and invalid (one constraint broken), every answer judged by the
      spec (result schema, listed error codes, INVALID_REQUEST for a malformed request, the timeout, a canary
      after every failure, nothing written on invalid params); malformed frames around them (an envelope field
      broken, not JSON, not an object: PARSE_ERROR, INVALID_REQUEST or UNKNOWN_TOPIC echoing topic and requestId
      as the spec says); two requests in flight with one requestId (two answers, T2; no third, T41); frames
      padded to just under the server's frame bound (answered as without the padding) and just over it (closed
      with 1009, then a new connection's canary answered, H4), the bound given by --frame-limit or found at the
      start (default find); event subscriptions with edits around the unsubscribe (each event valid for its
      data schema and subscribed to, none of a name unsubscribed from once the unsubscribe is answered, T42;
      0.1.7 servers pushing files/changed or diagnostics/changed). With --launch, after every failure the
      server process must still run: a dead one is a finding with the last frames sent, and it is relaunched.
      Write topics only when the handshake lists <dir>, which is reset after each. Each finding is shrunk and
      written as a fixture case to --out (default ./.idea-conformance/fuzz-findings/; a frame just under the
      bound, or events after an edit before the unsubscribe: the JSON report only). Findings are grouped by
      profile as the suite's verdicts (readings are should: warnings). --seed default random, always printed;
      budget default --time 60. Exit 0 without must findings, 1 with, 2 usage, 3 no server.`;
