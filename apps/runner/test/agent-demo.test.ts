import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OutputOf } from "@fleet/contracts";
import type { listMemories } from "@fleet/contracts/memories/list-memories";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoService } from "../dev/demo-service.ts";
import { SCRIPTED_NOTE } from "../dev/scripted-model.ts";
import { approveGate, pendingGate, tailFleet } from "./agent-fixtures.ts";
import {
  api,
  type Fleet,
  installDefinition,
  installFleet,
  live,
  message,
  processed,
  type RunnerProcess,
  startRunner,
  until,
  useApi,
} from "./harness.ts";

/**
 * What `pnpm start` shows a newcomer, with no provider configured: the platform library's demo agent
 * fleet (its seed, as first run stores it), the local status board and the scripted demo model
 * (apps/runner/dev), through the real API and its model gateway (FLEET_DEV_SCRIPTED_MODEL_URL), and the
 * runner's `auto` executor. Read the board, open the gate on memory_write, write it once approved, answer.
 */
let demo: Awaited<ReturnType<typeof startDemoService>>;
beforeAll(async () => {
  demo = await startDemoService(0);
});
useApi(() => ({ FLEET_DEV_SCRIPTED_MODEL_URL: demo.modelUrl }));
afterAll(() => demo?.close());

const seed = join(import.meta.dirname, "../../api/src/services/fleet-libraries/seed/status-board-agent.md");

/** The seed as first run stores it, plus a runner label of its own (so only this file's runner takes it). */
async function installDemoAgent(): Promise<Fleet> {
  const label = `demo-${Math.random().toString(36).slice(2, 10)}`;
  const definition = readFileSync(seed, "utf8").replace(
    "  network_hosts:\n",
    `  runner_labels:\n    - ${label}\n  network_hosts:\n`,
  );
  return installDefinition(definition, label);
}

describe("the demo agent fleet on the scripted demo model", () => {
  let agent: Fleet;
  let echo: Fleet;
  let runner: RunnerProcess;

  beforeAll(async () => {
    agent = await installDemoAgent();
    echo = await installFleet();
    runner = startRunner("demo-host", agent, {
      FLEET_RUNNER_EXECUTOR: "auto",
      FLEET_RUNNER_LABELS: `${agent.label},${echo.label}`,
    });
  });
  afterAll(async () => {
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
  });

  it("reads the board, gates the memory, writes it once approved, and answers, streamed", async () => {
    const tail = await tailFleet(agent);
    const eventId = await message(agent, "How is the shop doing?");
    const gate = await pendingGate(agent);
    expect(gate).toMatchObject({ tool_name: "memory_write", evidence: { call_id: "call_remember" } });
    expect(gate.proposed_action).toContain('"key":"status-board"');
    expect(String((gate.evidence as { model_text?: string }).model_text)).toContain(
      "checkout is degraded (p99 latency 2.4 s since 09:12 UTC)",
    );
    const memories = `/v1/workspaces/${live.tenant.workspace_id}/fleets/${agent.fleetId}/memories`;
    const before = await api<OutputOf<typeof listMemories>>("GET", memories, live.tenant.api_key);
    expect(before.body.items).toEqual([]);

    const approved = await approveGate(gate.gate_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const event = await processed(agent, eventId);
    expect(event.status).toBe("processed");
    expect(event.response_text).toContain("I remembered it as the memory status-board.");
    expect(event.response_text).toContain(SCRIPTED_NOTE);
    const after = await api<OutputOf<typeof listMemories>>("GET", memories, live.tenant.api_key);
    expect(after.body.items).toEqual([
      expect.objectContaining({ key: "status-board", category: "incidents" }),
    ]);

    await until("the run's frames", async () =>
      tail.frames.some((frame) => frame.kind === "event_complete") ? true : undefined,
    );
    tail.stop();
    const payloads = (kind: string) =>
      tail.frames.filter((frame) => frame.kind === kind).map((frame) => frame.data.payload);
    // The board was called over HTTP (no gate), the memory after its gate.
    expect(payloads("tool_call_completed")).toEqual([
      expect.objectContaining({ name: "http_request", call_id: "call_read_board", status: "ok" }),
      expect.objectContaining({ name: "memory_write", call_id: "call_remember", status: "ok" }),
    ]);
    expect((payloads("tool_call_completed")[0] as { output_head: string }).output_head).toContain(
      '"name":"checkout","status":"degraded"',
    );
    // The scripted model's text reached the live tail through the gateway, in many chunks.
    const chunks = payloads("chunk").map((chunk) => (chunk as { text: string }).text);
    expect(chunks.join("")).toContain("Let me read the status board first.");
    expect(chunks.join("")).toContain(SCRIPTED_NOTE);
  }, 90_000);

  it("answers a fleet without tools on the echo executor, never calling the model", async () => {
    const eventId = await message(echo, "Hello there");
    expect(await processed(echo, eventId)).toMatchObject({
      status: "processed",
      response_text: "Echo: Hello there",
    });
  }, 60_000);
});
