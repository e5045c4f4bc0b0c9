// The client command's part of `idea-conformance --help` (here, not in cli.ts: the help must not load the scenarios).
import { DEFAULT_CLIENT_TIMEOUT_MS } from './contract';

export const CLIENT_USAGE = `  idea-conformance client --command "<cmd>" [--scenario <id|glob>]… [options]
      Judge an IDEA client: for each scenario a scripted server (loopback, a random port, a fresh token),
      then <cmd> through the shell with the server's url as its last argument and IDEA_TOKEN,
      IDEA_CONFORMANCE_SCENARIO and IDEA_CONFORMANCE_REQUESTS (a JSON array of {topic, params}) in its
      environment; it sends those requests, prints one JSON line per request in that order ({"result": …}
      or {"error": …}, what it received) and exits 0 (conformance/docs/clients.md). Options: --reporter,
      --expected-failures, --name/--build, --profile as for run; --timeout <ms> (each run of the command,
      default ${DEFAULT_CLIENT_TIMEOUT_MS}); --concurrency N (scenarios at a time, default 2); --list`;
