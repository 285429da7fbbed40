import { type FakeMcpServer, startFakeMcpServer } from "@fleet/testing/fake-mcp-server";
import type { VendorCall } from "@fleet/testing/fake-model-vendor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approveGate,
  completions,
  denyGate,
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

/**
 * The fleet is sent `text`; the model says it will call `name` with `args`, calls it, then (once the call is
 * answered) answers "Done.". Answers once the call's gate is pending, with where the vendor's and the
 * server's records stood before.
 */
async function gatedCall(
  fleet: Fleet,
  text: string,
  callId: string,
  name: string,
  args: Record<string, unknown>,
) {
  const from = world.vendor.calls.length;
  const calls = mcp.calls.length;
  world.vendor.script(
    {
      kind: "answer",
      text: `I will call ${name}.`,
      toolCalls: [{ id: callId, name, arguments: JSON.stringify(args) }],
    },
    { kind: "answer", text: "Done." },
  );
  const eventId = await message(fleet, text);
  const gate = await pendingGate(fleet);
  expect(gate.proposed_action).toBe(`${name} ${JSON.stringify(args)}`);
  return { from, calls, eventId, gate };
}

/** The event `gatedCall` sent was processed: the model answered "Done." after the call's result. */
async function expectDone(fleet: Fleet, eventId: string) {
  expect(await processed(fleet, eventId)).toMatchObject({ status: "processed", response_text: "Done." });
}

/** An edit of the gate that does not fit the tool's schema: 400 UZ-APPROVAL-002 naming `arguments.<field>`. */
async function expectEditRefused(gateId: string, amended: string, field: string) {
  const refused = await approveGate(gateId, { amended_action: amended });
  expect(refused.status, JSON.stringify(refused.body)).toBe(400);
  expect(refused.body).toMatchObject({ error_code: "UZ-APPROVAL-002" });
  expect(String((refused.body as { detail?: unknown }).detail)).toContain(`arguments.${field}`);
}

/** What the model was given as the result of `callId`, in the completions since `from`. */
function toolResult(from: number, callId: string): string {
  const results = completions(world.vendor, from)
    .flatMap((call) => messagesOf(call))
    .filter((item) => item.role === "tool" && item.tool_call_id === callId);
  expect(results.length, `a result for ${callId}`).toBeGreaterThan(0);
  return JSON.stringify(results[0]!.content);
}

/** The names of the tools a completion call offered the model. */
function offeredIn(call: VendorCall): string[] {
  return (call.body as { tools: { function: { name: string } }[] }).tools.map((item) => item.function.name);
}

/**
 * For a describe block: a fleet declaring the local MCP server as `notes` (`server`: the entry's lines
 * after its url), run by its own agent runner, stopped after the block with no secret in its output.
 */
function useMcpFleet(host: string, server: string[]): { fleet: Fleet } {
  const used = {} as { fleet: Fleet };
  let runner: RunnerProcess;
  beforeAll(async () => {
    used.fleet = await installFleet({
      requires: [
        "network_hosts: [127.0.0.1]",
        "credentials: [{name: NOTES_TOKEN, reason: Reaches the notes server}]",
        "mcp_servers:",
        "  - name: notes",
        `    url: ${mcp.url}`,
        ...server.map((line) => `    ${line}`),
      ],
      instructions: "You are the notes helper.",
    });
    runner = startRunner(host, used.fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
  });
  afterAll(async () => {
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
    expectNoSecrets(runner);
    expect(runner.output.join("")).not.toContain(MCP_TOKEN);
  });
  return used;
}

describe("an MCP server the fleet declares", () => {
  const used = useMcpFleet("mcp-host", [
    "headers: {authorization: 'Bearer {{secrets.NOTES_TOKEN.token}}'}",
    "tools:",
    "  - {name: write_note, approval: required}",
  ]);

  it("offers its tools as <server>__<tool>, calls one, and the result reaches the model", async () => {
    const from = world.vendor.calls.length;
    const calls = mcp.calls.length;
    const opened = mcp.sessions.opened.length;
    world.vendor.script(toolCall("call_add", "notes__add", { a: 2, b: 3 }), {
      kind: "answer",
      text: "2 + 3 = 5.",
    });
    const tail = await tailFleet(used.fleet);
    const eventId = await message(used.fleet, "What is 2 + 3?");
    expect(await processed(used.fleet, eventId)).toMatchObject({
      status: "processed",
      response_text: "2 + 3 = 5.",
    });

    expect(mcp.calls.slice(calls)).toEqual([{ tool: "add", args: { a: 2, b: 3 } }]);
    // The secret placeholder in the server's headers was filled in; the model never saw the value.
    expect(mcp.requests.at(-1)!.headers.authorization).toBe(`Bearer ${MCP_TOKEN}`);
    const sent = completions(world.vendor, from);
    expect(sent).toHaveLength(2);
    expect(offeredIn(sent[0]!).sort()).toEqual(["notes__add", "notes__wait", "notes__write_note"]);
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
    const eventId = await message(used.fleet, "Note: buy milk.");
    const gate = await pendingGate(used.fleet);
    expect(gate).toMatchObject({
      tool_name: "notes__write_note",
      evidence: { call_id: "call_note", model_text: "I will write the note down." },
    });
    expect(gate.proposed_action).toBe(`notes__write_note ${JSON.stringify({ text: "buy milk" })}`);
    expect(mcp.notes).not.toContain("buy milk");

    const approved = await approveGate(gate.gate_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await processed(used.fleet, eventId)).toMatchObject({
      status: "processed",
      response_text: "Written.",
    });
    expect(mcp.notes.filter((note) => note === "buy milk")).toHaveLength(1);
    const result = messagesOf(completions(world.vendor, from)[1]!).find((item) => item.role === "tool");
    expect(JSON.stringify(result!.content)).toContain("Noted.");
  }, 60_000);

  it("runs the approver's edited arguments, an edit that does not fit the tool's schema refused when made", async () => {
    const { from, calls, eventId, gate } = await gatedCall(
      used.fleet,
      "Note: buy milk, again.",
      "call_note_edit",
      "notes__write_note",
      { text: "buy milk" },
    );
    // The gate carries the server's inputSchema for write_note: text is a string, and required.
    await expectEditRefused(gate.gate_id, 'notes__write_note {"text":5}', "text");
    await expectEditRefused(gate.gate_id, "notes__write_note {}", "text");
    const approved = await approveGate(gate.gate_id, {
      amended_action: `notes__write_note ${JSON.stringify({ text: "buy oat milk" })}`,
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await expectDone(used.fleet, eventId);
    // The server received the approver's arguments, once, and not the model's.
    expect(mcp.calls.slice(calls)).toEqual([{ tool: "write_note", args: { text: "buy oat milk" } }]);
    expect(toolResult(from, "call_note_edit")).toContain("Noted.");
  }, 60_000);

  it("does not call the server when the gate is denied; the model is told, with the approver's comment", async () => {
    const { from, calls, eventId, gate } = await gatedCall(
      used.fleet,
      "Note: sell the car.",
      "call_note_denied",
      "notes__write_note",
      { text: "sell the car" },
    );
    const denied = await denyGate(gate.gate_id, "we keep the car");
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    await expectDone(used.fleet, eventId);
    expect(mcp.calls.slice(calls)).toEqual([]);
    expect(toolResult(from, "call_note_denied")).toContain(
      `The approval of this notes__write_note call was denied by ${denied.body.resolved_by}: we keep the car. The tool did not run.`,
    );
  }, 60_000);

  it("does not call a tool the server stopped listing during the run (tools/list_changed); the model is told", async () => {
    const from = world.vendor.calls.length;
    const calls = mcp.calls.length;
    // A gated call holds the run while the server's list changes; then the model calls the retired tool.
    world.vendor.script(
      toolCall("call_note_first", "notes__write_note", { text: "before the change" }),
      toolCall("call_add_gone", "notes__add", { a: 1, b: 1 }),
      { kind: "answer", text: "The add tool is gone." },
    );
    const eventId = await message(used.fleet, "Note it, then add.");
    const gate = await pendingGate(used.fleet);
    const session = mcp.sessions.opened.at(-1)!;
    const lists = () => mcp.rpc.filter((item) => item.session === session && item.method === "tools/list");
    const listedBefore = lists().length;
    // The session's standing GET stream, on which a server sends what no request asked for.
    await until("the session's GET stream", async () =>
      mcp.requests.some((item) => item.method === "GET" && item.headers["mcp-session-id"] === session)
        ? true
        : undefined,
    );
    try {
      mcp.retireTool("add");
      // The runner was told (on the session's GET stream) and read the list again.
      await until("the runner's second read of the tool list", async () =>
        lists().length > listedBefore ? true : undefined,
      );
      expect((await approveGate(gate.gate_id)).status).toBe(200);
      expect(await processed(used.fleet, eventId)).toMatchObject({
        status: "processed",
        response_text: "The add tool is gone.",
      });
    } finally {
      mcp.restoreTools();
    }
    expect(mcp.calls.slice(calls)).toEqual([{ tool: "write_note", args: { text: "before the change" } }]);
    expect(toolResult(from, "call_add_gone")).toContain(
      "The MCP server notes no longer offers the tool add (its tool list changed during this run), so it was not called.",
    );
    // The offer itself is fixed for the run: the model was still offered notes__add.
    expect(offeredIn(completions(world.vendor, from).at(-1)!)).toContain("notes__add");
  }, 60_000);
});

describe("an MCP server marked approval: required", () => {
  const used = useMcpFleet("mcp-gated-host", ["approval: required"]);

  it("gates every tool of the server; approved with changes, the server adds the approver's numbers", async () => {
    const { from, calls, eventId, gate } = await gatedCall(
      used.fleet,
      "What is 2 + 2?",
      "call_add_edit",
      "notes__add",
      { a: 2, b: 2 },
    );
    expect(gate).toMatchObject({ tool_name: "notes__add", gate_kind: "tool.notes__add" });
    expect(mcp.calls.length).toBe(calls);
    await expectEditRefused(gate.gate_id, 'notes__add {"a":"forty","b":2}', "a");
    const approved = await approveGate(gate.gate_id, { amended_action: 'notes__add {"a":40,"b":2}' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await expectDone(used.fleet, eventId);
    expect(mcp.calls.slice(calls)).toEqual([{ tool: "add", args: { a: 40, b: 2 } }]);
    expect(toolResult(from, "call_add_edit")).toContain("42");
  }, 60_000);
});
