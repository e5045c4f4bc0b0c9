// A server that starts late, for the CI recipe's test (ci-files.test.ts): listens on loopback, waits
// IDEA_LATE_MS, then says where it is for the folder given as its argument — in the per-user registry
// (IDEA_REGISTRY_DIR) as the reference extension does, or with IDEA_LATE_VIA=settings only through the
// discovery keys in the folder's .vscode/settings.json — and exits after IDEA_LATE_LIFE_MS.

import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { DISCOVERY_KEYS, workspaceSettingsFile } from '../../runtime/discovery';
import { registerServer } from '../../runtime/registry';

const folder = realpathSync(process.argv[2]!);
const server = createServer((s) => s.destroy());
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  setTimeout(
    () => {
      const token = process.env.IDEA_LATE_TOKEN;
      let reg: ReturnType<typeof registerServer> | undefined;
      if (process.env.IDEA_LATE_VIA === 'settings') {
        const file = workspaceSettingsFile(folder);
        writeFileSync(
          file,
          JSON.stringify(
            { ...JSON.parse(readFileSync(file, 'utf8')), [DISCOVERY_KEYS.port]: port, [DISCOVERY_KEYS.token]: token },
            null,
            2,
          ),
        );
      } else
        reg = registerServer({
          pid: process.pid,
          port,
          protocolVersion: '0.1.6',
          workspaces: [folder],
          token,
          authRequired: true,
        });
      setTimeout(
        () => {
          reg?.remove();
          server.close();
        },
        Number(process.env.IDEA_LATE_LIFE_MS ?? 30_000),
      );
    },
    Number(process.env.IDEA_LATE_MS ?? 3000),
  );
});
