// A generated server in its own process, for fault tests that kill it outright (SIGKILL). Handlers
// never answer edit/find (so requests are pending when it dies); other topics answer at once.
// Prints "PORT <n>" when listening. Argument: port (0 = any).
import { startTestServer, trivialHandlers } from './harness';

const hang = new Set(['/app/vscode/edit/find']);
const srv = await startTestServer({
  port: Number(process.argv[2] ?? 0),
  handlers: trivialHandlers((topic, run) => (hang.has(topic) ? new Promise(() => {}) : run())),
});
console.log(`PORT ${srv.server.port}`);
