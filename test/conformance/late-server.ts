// A server that starts late, for the CI recipe's test (ci-files.test.ts): listens on loopback, waits
// IDEA_LATE_MS, then registers for the folder given as its argument in the per-user registry
// (IDEA_REGISTRY_DIR) as the reference extension does, and exits after IDEA_LATE_LIFE_MS.
import { createServer } from 'node:net';
import { realpathSync } from 'node:fs';
import { registerServer } from '../../runtime/registry';

const folder = realpathSync(process.argv[2]!);
const server = createServer((s) => s.destroy());
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  setTimeout(() => {
    const reg = registerServer({ pid: process.pid, port, protocolVersion: '0.1.6', workspaces: [folder], token: process.env.IDEA_LATE_TOKEN, authRequired: true });
    setTimeout(() => {
      reg.remove();
      server.close();
    }, Number(process.env.IDEA_LATE_LIFE_MS ?? 30_000));
  }, Number(process.env.IDEA_LATE_MS ?? 3000));
});
