// The fuzz command's part of `idea-conformance --help` (here, not in cli.ts: the help must not load fast-check).
export const FUZZ_USAGE = `  idea-conformance fuzz --workspace <dir> [--url ws://…] [--token <t>] [--seed N] [--runs N | --time S]
                       [--topics edit/find,…] [--timeout MS] [--shrink-time S] [--out DIR] [--reporter console|json[:<file>]]
      Schema-driven fuzzing of a server that has the fixture workspace <dir> open (server and token found as for
      run): params generated from each advertised topic's params schema, valid (edge values) and invalid (one
      constraint broken), every answer judged by the spec (result schema, listed error codes, INVALID_REQUEST for
      a malformed request, the timeout, a canary after every failure, nothing written on invalid params);
      malformed frames around them (an envelope field broken, not JSON, not an object: PARSE_ERROR,
      INVALID_REQUEST or UNKNOWN_TOPIC echoing topic and requestId as the spec says), and event subscriptions
      with an edit between them (each event valid for its data schema, none after the unsubscribe is answered;
      0.1.7 servers pushing files/changed or diagnostics/changed). Write topics only when the handshake lists
      <dir>, which is reset after each. Each finding is shrunk and written as a fixture case to --out (default
      ./.idea-conformance/fuzz-findings/; subscription findings: the JSON report only). --seed default random,
      always printed; budget default --time 60. Exit 0 without findings, 1 with, 2 usage, 3 no server.`;
