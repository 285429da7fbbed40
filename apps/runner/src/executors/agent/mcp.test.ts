import { type FakeMcpServer, startFakeMcpServer } from "@fleet/testing/fake-mcp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeGate, fakeLease } from "../../../test/lease.ts";
import type { GateRequest } from "../../api.ts";
import type { LeaseTools } from "../../executor.ts";
import { closeMcpSessions, connectMcpServers, type LeasedMcpServer, type McpSessions } from "./mcp.ts";
import { mcpTools, offeredName, resultText, unavailableNote } from "./mcp-tools.ts";

let mcp: FakeMcpServer;
beforeAll(async () => {
  mcp = await startFakeMcpServer();
});
afterAll(() => mcp?.close());

function leaseTools(signal = new AbortController().signal, credentials = new Map()): LeaseTools {
  return { signal, credentials, publish: async () => undefined } as unknown as LeaseTools;
}

const server = (overrides: Partial<LeasedMcpServer> = {}): LeasedMcpServer => ({
  name: "notes",
  url: mcp.url,
  approval: null,
  tool_approvals: [],
  ...overrides,
});

/** Lease tools whose gates are approved at once with `amended` as the approver's edit; `opened` records them. */
function gatedTools(opened: GateRequest[], amended: string): LeaseTools {
  return {
    ...leaseTools(),
    openGate: async (request: GateRequest) => {
      opened.push(request);
      return fakeGate({ status: "approved", outcome: "approved", amended_action: amended });
    },
    markGateRan: async () => ({ first: true, action_ran_at: 1 }),
  } as unknown as LeaseTools;
}

/** What the AI SDK hands a tool's execute, as far as these tools read it. */
const callOptions = (toolCallId: string) => ({ toolCallId, messages: [] }) as never;

const leaseWith = (servers: LeasedMcpServer[], networkHosts = ["127.0.0.1"]) =>
  fakeLease({
    fleet: { ...fakeLease().fleet, network_hosts: networkHosts, mcp_servers: servers },
  });

describe("the fleet's MCP servers", () => {
  it("refuses a server outside network_hosts without a request, and the model is told", async () => {
    const before = mcp.requests.length;
    const servers = await connectMcpServers(leaseWith([server()], ["example.com"]), leaseTools());
    expect(servers.sessions).toEqual([]);
    expect(servers.unavailable).toEqual([
      { name: "notes", why: "127.0.0.1 is not one of the fleet's network hosts; no request was sent" },
    ]);
    expect(mcp.requests.length).toBe(before);
    expect(unavailableNote(servers)).toContain("The MCP server notes could not be reached");
  });

  it("leaves out a server whose header names a secret the lease lacks, and one that does not answer", async () => {
    const servers = await connectMcpServers(
      leaseWith([
        server({ headers: { authorization: "Bearer {{secrets.GONE.token}}" } }),
        server({ name: "down", url: "http://127.0.0.1:1/mcp" }),
      ]),
      leaseTools(),
    );
    expect(servers.sessions).toEqual([]);
    expect(servers.unavailable.map((item) => item.name)).toEqual(["notes", "down"]);
    expect(servers.unavailable[0]!.why).toBe(
      "{{secrets.GONE.token}} names a secret this fleet does not hold",
    );
  });

  it("offers the tools under the server's name, gated as marked, and ends the session", async () => {
    const servers = await connectMcpServers(
      leaseWith([server({ tool_approvals: ["write_note"] })]),
      leaseTools(),
    );
    expect(servers.unavailable).toEqual([]);
    const set = mcpTools(fakeLease(), leaseTools(), servers);
    expect(Object.keys(set).sort()).toEqual(["notes__add", "notes__wait", "notes__write_note"]);
    const added = await set.notes__add!.execute!({ a: 40, b: 2 }, callOptions("c1"));
    expect(added).toBe("42");
    const session = mcp.sessions.opened.at(-1)!;
    await closeMcpSessions(servers);
    expect(mcp.sessions.closed).toContain(session);
  });

  it("gates every tool of a server marked approval: required; a denied call never reaches the server", async () => {
    const opened: GateRequest[] = [];
    const tools = {
      ...leaseTools(),
      openGate: async (request: GateRequest) => {
        opened.push(request);
        return fakeGate({ status: "denied", outcome: "denied", resolved_by: "ops", reason: "not now" });
      },
    } as unknown as LeaseTools;
    const servers = await connectMcpServers(leaseWith([server({ approval: "required" })]), tools);
    const set = mcpTools(fakeLease(), tools, servers);
    const before = mcp.calls.length;
    const told = await set.notes__add!.execute!({ a: 1, b: 1 }, callOptions("c3"));
    await closeMcpSessions(servers);
    expect(opened.map((request) => request.proposed_action)).toEqual(['notes__add {"a":1,"b":1}']);
    expect(told).toBe(
      "The approval of this notes__add call was denied by ops: not now. The tool did not run.",
    );
    expect(mcp.calls.length).toBe(before);
  });

  it("sends the tool's input schema with its gate, without $schema, and runs the approver's arguments", async () => {
    const opened: GateRequest[] = [];
    const tools = gatedTools(opened, 'notes__write_note {"text":"edited"}');
    const servers = await connectMcpServers(leaseWith([server({ tool_approvals: ["write_note"] })]), tools);
    const set = mcpTools(fakeLease(), tools, servers);
    const before = mcp.calls.length;
    expect(await set.notes__write_note!.execute!({ text: "proposed" }, callOptions("c4"))).toBe("Noted.");
    await closeMcpSessions(servers);
    expect(opened[0]!.action_schema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    expect(opened[0]!.action_schema).not.toHaveProperty("$schema");
    expect(mcp.calls.slice(before)).toEqual([{ tool: "write_note", args: { text: "edited" } }]);
  });

  it("gates a tool whose schema a gate cannot hold with only 'an object'; an edit that is not one is not run", async () => {
    const opened: GateRequest[] = [];
    const calls: unknown[] = [];
    const sessions: McpSessions = {
      unavailable: [],
      sessions: [
        {
          server: server({ approval: "required" }),
          client: { callTool: async (request: unknown) => calls.push(request) } as never,
          tools: [
            {
              name: "big",
              inputSchema: {
                type: "object",
                properties: { x: { type: "string", description: "x".repeat(20_000) } },
              },
            },
          ],
          stillListed: async () => true,
          close: async () => undefined,
        },
      ],
    };
    const tools = gatedTools(opened, "notes__big [1]");
    const told = await mcpTools(fakeLease(), tools, sessions).notes__big!.execute!(
      { x: "y" },
      callOptions("c5"),
    );
    expect(opened[0]!.action_schema).toEqual({ type: "object" });
    expect(told).toBe(
      "The approver's changed arguments are not an object, as this tool's must be, so it did not run.",
    );
    expect(calls).toEqual([]);
  });

  it("follows tools/list_changed: a tool the server stops listing is not called, and is again once listed", async () => {
    const servers = await connectMcpServers(leaseWith([server()]), leaseTools());
    const session = mcp.sessions.opened.at(-1)!;
    const set = mcpTools(fakeLease(), leaseTools(), servers);
    const reads = () => mcp.rpc.filter((item) => item.session === session && item.method === "tools/list");
    const rereadAfter = async (change: () => void) => {
      const before = reads().length;
      await expect
        .poll(() =>
          mcp.requests.some((item) => item.method === "GET" && item.headers["mcp-session-id"] === session),
        )
        .toBe(true);
      change();
      await expect.poll(() => reads().length).toBeGreaterThan(before);
    };
    const before = mcp.calls.length;
    try {
      await rereadAfter(() => mcp.retireTool("add"));
      expect(await set.notes__add!.execute!({ a: 1, b: 2 }, callOptions("c6"))).toBe(
        "The MCP server notes no longer offers the tool add (its tool list changed during this run), so it was not called.",
      );
      expect(mcp.calls.length).toBe(before);
    } finally {
      await rereadAfter(() => mcp.restoreTools());
    }
    expect(await set.notes__add!.execute!({ a: 1, b: 2 }, callOptions("c7"))).toBe("3");
    await closeMcpSessions(servers);
  });

  it("abandons a running call within a second when the lease is lost", async () => {
    const lost = new AbortController();
    const tools = leaseTools(lost.signal);
    const servers = await connectMcpServers(leaseWith([server()]), tools);
    const set = mcpTools(fakeLease(), tools, servers);
    const running = set.notes__wait!.execute!({ ms: 30_000 }, callOptions("c2"));
    await expect.poll(() => mcp.calls.some((call) => call.tool === "wait")).toBe(true);
    const started = Date.now();
    lost.abort();
    await expect(running).rejects.toThrow();
    await closeMcpSessions(servers);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("MCP tool names and results", () => {
  it("keeps <server>__<tool> when it fits the model's tool-name rule, else a fitting name with a hash", () => {
    expect(offeredName("notes", "write_note")).toBe("notes__write_note");
    const dotted = offeredName("gh", "issues.create");
    expect(dotted).toMatch(/^gh__issues_create_[0-9a-f]{8}$/);
    expect(offeredName("gh", "issues_create")).not.toBe(dotted);
    const long = offeredName("a".repeat(32), "b".repeat(60));
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it("gives the model text parts, names other parts, and bounds the whole", () => {
    expect(
      resultText({
        content: [
          { type: "text", text: "one" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
      }),
    ).toBe("one\n[image (image/png) not shown]");
    expect(resultText({ content: [], structuredContent: { ok: true } })).toBe('{"ok":true}');
    const big = resultText({ content: [{ type: "text", text: "x".repeat(70_000) }] });
    expect(big.length).toBeLessThan(66_000);
    expect(big).toMatch(/\(result cut at 65536 characters\)$/);
  });
});
