import { afterAll, describe, expect, it } from "vitest";
import { runTraceId } from "../src/runtime/tracing.ts";
import { testApi } from "./harness.ts";
import { scrape, TOKEN, value } from "./metrics-fixtures.ts";
import {
  CANARY_KEY,
  chat,
  type GatewayRun,
  MODEL,
  secretRun,
  streamCall,
  useModelVendor,
} from "./model-gateway-fixtures.ts";
import { otlpReceiver } from "./otlp-receiver.ts";
import type { Frame, OpenedStream } from "./stream-fixtures.ts";

const receiver = await otlpReceiver();
afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));

const vendor = useModelVendor({
  FLEET_METRICS_TOKEN: TOKEN,
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_SERVICE_NAME: "fleet-test",
});

const SECRET = `canary_value_${"9f3c".repeat(6)}`;
const MASKED = "[secret:CANARY_TOKEN]";

/** A run of a fleet declaring CANARY_TOKEN (the secret's value is SECRET), its tenant on the fake vendor. */
const liveRun = () => secretRun("CANARY_TOKEN", SECRET);

/** A streamed call read to its end: the text of its deltas. */
async function streamed(run: GatewayRun): Promise<string> {
  const { response, data } = await streamCall(run);
  expect(response.status).toBe(200);
  return data
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { choices: { delta: { content?: string } }[] })
    .map((chunk) => chunk.choices?.[0]?.delta.content ?? "")
    .join("");
}

/** The chunk frames of the run, once their text adds up to `expected` (fails after 10 s). */
async function chunksUntil(stream: OpenedStream, expected: string): Promise<Frame[]> {
  const chunks = () => stream.frames.filter((frame) => frame.event === "chunk");
  const joined = () =>
    chunks()
      .map((frame) => frame.data.payload.text as string)
      .join("");
  const deadline = Date.now() + 10_000;
  while (joined().length < expected.length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(joined()).toBe(expected);
  return chunks();
}

describe("the gateway's live output", () => {
  it("publishes a streamed call's text as chunk frames, coalesced and masked", async () => {
    const run = await liveRun();
    try {
      const words = Array.from({ length: 30 }, (_, i) => `word${i}`);
      const text = `${words.slice(0, 15).join(" ")} the token is ${SECRET} and ${words.slice(15).join(" ")}.`;
      // 60 pieces, 8 ms apart: a piece every 8 ms, so the canary is cut between pieces.
      vendor().script({
        kind: "answer",
        text,
        chunks: 60,
        chunkDelayMs: 8,
        usage: { input: 50, output: 40 },
      });
      const relayed = await streamed(run);
      // The runner gets the model's text as it was (it asked for it; masking is for what people read).
      expect(relayed).toBe(text);
      const frames = await chunksUntil(run.stream, text.replace(SECRET, MASKED));
      expect(frames.length).toBeGreaterThan(1);
      expect(frames.length).toBeLessThan(20);
      // At most one frame per 50 ms; the last one is the rest, flushed when the stream ends.
      for (let i = 1; i < frames.length - 1; i++)
        expect(
          frames[i]!.data.at - frames[i - 1]!.data.at,
          JSON.stringify(frames.map((f) => [f.data.at, f.data.payload.text])),
        ).toBeGreaterThanOrEqual(50);
      for (const frame of frames) {
        expect(frame.data.lease_id).toBe(run.lease.lease_id);
        expect(frame.data.event_id).toBe(run.lease.event_id);
        expect(frame.data.fleet_id).toBe(run.fleetId);
      }
      const seen = JSON.stringify(run.stream.frames);
      expect(seen).not.toContain(SECRET);
      expect(seen).not.toContain(CANARY_KEY);
    } finally {
      run.stream.close();
    }
  });

  it("sends fewer frames than the vendor's pieces when the vendor is fast, and flushes the rest at the end", async () => {
    const run = await liveRun();
    try {
      const text = Array.from({ length: 200 }, (_, i) => `t${i}`).join(" ");
      vendor().script({ kind: "answer", text, chunks: 100, chunkDelayMs: 0 });
      const started = Date.now();
      expect(await streamed(run)).toBe(text);
      const elapsed = Date.now() - started;
      const frames = await chunksUntil(run.stream, text);
      // One frame per 50 ms of the call at most, and the rest at its end.
      expect(frames.length).toBeLessThanOrEqual(Math.floor(elapsed / 50) + 2);
      expect(frames.length).toBeLessThan(100);
    } finally {
      run.stream.close();
    }
  });

  it("replaces a NUL and a lone surrogate in the model's text, and the live tail carries on", async () => {
    const run = await liveRun();
    try {
      const text = "nul \u0000 and \ud800 here";
      vendor().script({ kind: "answer", text, chunks: 4 });
      expect(await streamed(run)).toBe(text);
      await chunksUntil(run.stream, "nul \uFFFD and \uFFFD here");
      vendor().script({ kind: "answer", text: "still live" });
      expect((await chat(run)).status).toBe(200);
      await chunksUntil(run.stream, "nul \uFFFD and \uFFFD herestill live");
    } finally {
      run.stream.close();
    }
  });

  it("publishes what a stream the vendor breaks had written", async () => {
    const run = await liveRun();
    try {
      vendor().script({ kind: "break", afterChunks: 3 });
      const relayed = await streamed(run);
      expect(relayed.length).toBeGreaterThan(0);
      await chunksUntil(run.stream, relayed);
    } finally {
      run.stream.close();
    }
  });

  it("publishes an unstreamed call's answer as one frame, masked", async () => {
    const run = await liveRun();
    try {
      vendor().script({ kind: "answer", text: `here: ${SECRET}` });
      const answered = await chat(run);
      expect(answered.status, answered.text).toBe(200);
      const frames = await chunksUntil(run.stream, `here: ${MASKED}`);
      expect(frames).toHaveLength(1);
    } finally {
      run.stream.close();
    }
  });
  it("splits a text over 64 KiB into frames, never between the halves of a surrogate pair", async () => {
    const run = await liveRun();
    try {
      const text = `${"a".repeat(64 * 1024 - 1)}\u{1F600}${"b".repeat(10)}`;
      vendor().script({ kind: "answer", text });
      expect((await chat(run)).status).toBe(200);
      const frames = await chunksUntil(run.stream, text);
      expect(frames).toHaveLength(2);
      expect(frames[1]!.data.payload.text).toBe(`\u{1F600}${"b".repeat(10)}`);
    } finally {
      run.stream.close();
    }
  });

  it("starts the text of a run's next call (one carrying an assistant turn) on a new paragraph", async () => {
    const run = await liveRun();
    try {
      vendor().script({ kind: "answer", text: "Looking it up." });
      expect((await chat(run)).status).toBe(200);
      await chunksUntil(run.stream, "Looking it up.");
      vendor().script({ kind: "answer", text: "Found it.", chunks: 2 });
      const messages = [
        { role: "user", content: "hello" },
        { role: "assistant", content: "Looking it up." },
        { role: "user", content: "and?" },
      ];
      expect((await chat(run, { messages })).status).toBe(200);
      await chunksUntil(run.stream, "Looking it up.\n\nFound it.");
    } finally {
      run.stream.close();
    }
  });
});

describe("the gateway's metrics and spans", () => {
  it("counts calls, tokens and latency by provider, model and outcome, and traces each call", async () => {
    const api = await testApi();
    const before = await scrape(api.baseUrl);
    const labels = { provider: "openai", model: MODEL };
    const ok = (text: string) => value(text, "fleet_model_calls_total", { ...labels, outcome: "ok" }) ?? 0;
    const tokens = (text: string, kind: string) =>
      value(text, "fleet_model_tokens_total", { ...labels, kind }) ?? 0;
    const run = await liveRun();
    run.stream.close();
    vendor().script({ kind: "answer", text: "a b c", usage: { input: 100, output: 7, cached: 40 } });
    expect((await chat(run)).status).toBe(200);
    vendor().script({ kind: "answer", text: "d e f", chunks: 3, usage: { input: 30, output: 5 } });
    await streamed(run);
    vendor().script({ kind: "status", status: 503 });
    expect((await chat(run)).status).toBe(502);

    const after = await scrape(api.baseUrl);
    expect(ok(after) - ok(before)).toBe(2);
    const unreachable = value(after, "fleet_model_calls_total", { ...labels, outcome: "unreachable" });
    expect(unreachable).toBe(1);
    expect(tokens(after, "input") - tokens(before, "input")).toBe(60 + 30);
    expect(tokens(after, "cached") - tokens(before, "cached")).toBe(40);
    expect(tokens(after, "output") - tokens(before, "output")).toBe(12);
    const duration = value(after, "fleet_model_call_duration_seconds_count", { ...labels, outcome: "ok" });
    expect(duration).toBe(ok(after));
    expect(value(after, "fleet_model_time_to_first_chunk_seconds_count", labels)).toBeGreaterThanOrEqual(1);
    // No ids in the labels: only provider, model, outcome, kind (and a histogram's le).
    for (const line of after.split("\n").filter((l) => l.startsWith("fleet_model_"))) {
      expect(line).not.toContain(run.lease.lease_id);
      expect(line).not.toContain(run.tenant.workspaceId);
      expect(line).toMatch(/^fleet_model_\w+\{(?:(?:provider|model|outcome|kind|le)="[^"]*",?)+\} /);
    }

    await api.app.services.tracing!.flush();
    const spans = receiver.spans.filter(
      (span) => span.traceId === runTraceId(run.lease.event_id) && span.name === "fleet.model_call",
    );
    expect(spans).toHaveLength(3);
    const streamedSpan = spans.find((span) => span.attributes["fleet.model.stream"] === true)!;
    expect(streamedSpan.attributes).toMatchObject({
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": MODEL,
      "fleet.model.outcome": "ok",
      "gen_ai.usage.input_tokens": 30,
      "gen_ai.usage.output_tokens": 5,
      "fleet.lease_id": run.lease.lease_id,
    });
    expect(spans.map((span) => span.attributes["fleet.model.outcome"]).sort()).toEqual([
      "ok",
      "ok",
      "unreachable",
    ]);
    // Under the lease's span, whose id every instance derives from the lease id.
    const parents = new Set(spans.map((span) => span.parentSpanId));
    expect(parents.size).toBe(1);
    expect(JSON.stringify(spans)).not.toContain(CANARY_KEY);
  });
});
