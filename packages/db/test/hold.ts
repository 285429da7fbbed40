// Holds an embedded data directory the way the API server does, until stdin closes.
import { openDatabase } from "../src/index.ts";

const handle = await openDatabase(`pglite://${process.argv[2]}`, {
  controlSocket: "/tmp/fleet-lock-test.sock",
});
await handle.migrate();
process.stdout.write("ready\n");
process.stdin.resume();
process.stdin.on("end", async () => {
  const rows = await handle.query<{ n: number }>("select count(*)::int as n from tenants");
  process.stdout.write(`tenants=${rows[0]!.n}\n`);
  await handle.close();
  process.exit(0);
});
