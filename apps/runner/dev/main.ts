// The local demo service of `pnpm start` (dev mode): the status board and the scripted demo model
// (demo-service.ts). Port FLEET_DEMO_PORT (default 8091), loopback only; SIGTERM or SIGINT stops it.
import { startDemoService } from "./demo-service.ts";

const raw = process.env.FLEET_DEMO_PORT ?? "8091";
const port = Number(raw);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`invalid configuration: FLEET_DEMO_PORT must be a port number (1-65535)`);
  process.exit(1);
}
const service = await startDemoService(port, { chunkDelayMs: 40 });
console.log(`demo service: status board ${service.url}/status, scripted demo model ${service.modelUrl}`);
for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.once(signal, () => {
    service.server.closeAllConnections();
    void service.close().then(() => process.exit(0));
  });
