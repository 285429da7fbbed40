import type { Lease } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import type { Executor, LeaseTools } from "../executor.ts";
import { createAutoExecutor } from "./auto.ts";

const named = (name: string): Executor => ({
  name,
  run: async () => ({ outcome: "processed", response_text: name }),
});

const leaseWith = (tools: string[], mcpServers?: { name: string }[]) =>
  ({ fleet: { tools, mcp_servers: mcpServers } }) as unknown as Lease;

describe("the auto executor", () => {
  it("runs a fleet that declares tools or MCP servers on the agent executor, one that declares neither on echo", async () => {
    const auto = createAutoExecutor({ agent: named("agent"), echo: named("echo") });
    const tools = {} as LeaseTools;
    expect(await auto.run(leaseWith(["http_request"]), tools)).toMatchObject({ response_text: "agent" });
    expect(await auto.run(leaseWith([]), tools)).toMatchObject({ response_text: "echo" });
    expect(await auto.run(leaseWith([], [{ name: "notes" }]), tools)).toMatchObject({
      response_text: "agent",
    });
    expect(await auto.run(leaseWith([], []), tools)).toMatchObject({ response_text: "echo" });
    expect(auto.name).toBe("auto");
  });
});
