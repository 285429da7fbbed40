import type { Lease } from "@fleet/contracts";
import type { Executor } from "../executor.ts";

/**
 * The `auto` executor (what `pnpm start`'s local runner runs): a fleet that declares tools or MCP servers
 * runs on the `agent` executor, one that declares neither (Echo) on `echo`. One runner process serves both demo fleets,
 * so the start starts no second runner and Ctrl-C stops one. A deployment picks `agent` or `echo`: an
 * agent fleet without tools (plain conversation) would be echoed here.
 */
export function createAutoExecutor(executors: { agent: Executor; echo: Executor }): Executor {
  return {
    name: "auto",
    run: (lease: Lease, tools) => (declaresTools(lease) ? executors.agent : executors.echo).run(lease, tools),
  };
}

function declaresTools(lease: Lease): boolean {
  return lease.fleet.tools.length > 0 || (lease.fleet.mcp_servers?.length ?? 0) > 0;
}
