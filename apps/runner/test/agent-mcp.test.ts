import { type FakeMcpServer, startFakeMcpServer } from "@fleet/testing/fake-mcp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approveGate,
  completions,
  messagesOf,
  pendingGate,
  storeSecret,
  tailFleet,
  toolCall,
  useAgentWorld,
} from "./agent-fixtures.ts";
import {
  expectNoSecrets,
  type Fleet,
  installFleet,
  message,
  processed,
  type RunnerProcess,
  startRunner,
  until,
} from "./harness.ts";

/**
 * MCP servers declared by the fleet: the agent executor connects to a local MCP server (the SDK's own
 * server side, packages/testing) over Streamable HTTP, offers its tools as `<server>__<tool>`, calls them,
 * and gates the ones marked `approval: required`; the fake model vendor plays the model.
 */
const MCP_TOKEN = `mcp_canary_${Math.random().toString(36).slice(2)}_secret`;
const world = useAgentWorld();
let mcp: FakeMcpServer;
beforeAll(async () => {
  mcp = await startFakeMcpServer();
  await storeSecret("NOTES_TOKEN", { token: MCP_TOKEN });
});
afterAll(() => mcp?.close());

describe("an MCP server the fleet declares", () => {
  let fleet: Fleet;
  let runner: RunnerProcess;

  beforeAll(async () => {
    fleet = await installFleet({
      requires: [
        "network_hosts: [127.0.0.1]",
        "credentials: [{name: NOTES_TOKEN, reason: Reaches the notes server}]",
        "mcp_servers:",
        "  - name: notes",
        `    url: ${mcp.url}`,
        "    headers: {authorization: 'Bearer {{secrets.NOTES_TOKEN.token}}'}",
        "    tools:",
        "      - {name: write_note, approval: required}",
      ],
      instructions: "You are the notes helper.",
    });
    runner = startRunner("mcp-host", fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
  });
  afterAll(async () => {
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
    expectNoSecrets(runner);
    expect(runner.output.join("")).not.toContain(MCP_TOKEN);
  });

  it("offers its tools as <server>__<tool>, calls one, and the result reaches the model", async () => {
    const from = world.vendor.calls.length;
    const calls = mcp.calls.length;
    const opened = mcp.sessions.opened.length;
    world.vendor.script(toolCall("call_add", "notes__add", { a: 2, b: 3 }), {
      kind: "answer",
      text: "2 + 3 = 5.",
    });
    const tail = await tailFleet(fleet);
    const eventId = await message(fleet, "What is 2 + 3?");
    expect(await processed(fleet, eventId)).toMatchObject({
      status: "processed",
      response_text: "2 + 3 = 5.",
    });

    expect(mcp.calls.slice(calls)).toEqual([{ tool: "add", args: { a: 2, b: 3 } }]);
    // The secret placeholder in the server's headers was filled in; the model never saw the value.
    expect(mcp.requests.at(-1)!.headers.authorization).toBe(`Bearer ${MCP_TOKEN}`);
    const sent = completions(world.vendor, from);
    expect(sent).toHaveLength(2);
    const offered = (sent[0]!.body as { tools: { function: { name: string } }[] }).tools.map(
      (item) => item.function.name,
    );
    expect(offered.sort()).toEqual(["notes__add", "notes__wait", "notes__write_note"]);
    const result = messagesOf(sent[1]!).find((item) => item.role === "tool");
    expect(result).toMatchObject({ tool_call_id: "call_add" });
    expect(JSON.stringify(result!.content)).toContain("5");
    expect(JSON.stringify(sent.map((call) => call.body))).not.toContain(MCP_TOKEN);

    // Framed as any tool call; the session was ended (DELETE) when the run ended.
    await until("the run's frames", async () =>
      tail.frames.some((frame) => frame.kind === "event_complete") ? true : undefined,
    );
    tail.stop();
    const completed = tail.frames
      .filter((frame) => frame.kind === "tool_call_completed")
      .map((frame) => frame.data.payload);
    expect(completed).toEqual([
      expect.objectContaining({ name: "notes__add", call_id: "call_add", status: "ok", output_head: "5" }),
    ]);
    expect(mcp.sessions.opened.length).toBe(opened + 1);
    await until("the session's end", async () =>
      mcp.sessions.closed.includes(mcp.sessions.opened.at(-1)!) ? true : undefined,
    );
  }, 60_000);

  it("waits for the gate of a tool marked approval: required, then runs it once", async () => {
    const from = world.vendor.calls.length;
    world.vendor.script(
      {
        kind: "answer",
        text: "I will write the note down.",
        toolCalls: [
          { id: "call_note", name: "notes__write_note", arguments: JSON.stringify({ text: "buy milk" }) },
        ],
      },
      { kind: "answer", text: "Written." },
    );
    const eventId = await message(fleet, "Note: buy milk.");
    const gate = await pendingGate(fleet);
    expect(gate).toMatchObject({
      tool_name: "notes__write_note",
      evidence: { call_id: "call_note", model_text: "I will write the note down." },
    });
    expect(gate.proposed_action).toBe(`notes__write_note ${JSON.stringify({ text: "buy milk" })}`);
    expect(mcp.notes).not.toContain("buy milk");

    const approved = await approveGate(gate.gate_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await processed(fleet, eventId)).toMatchObject({ status: "processed", response_text: "Written." });
    expect(mcp.notes.filter((note) => note === "buy milk")).toHaveLength(1);
    const result = messagesOf(completions(world.vendor, from)[1]!).find((item) => item.role === "tool");
    expect(JSON.stringify(result!.content)).toContain("Noted.");
  }, 60_000);
});
