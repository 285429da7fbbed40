import assert from "node:assert/strict";
import { test } from "node:test";
import { backoffMs, RecentIds, SseParser } from "./sse.ts";

test("parses named frames split across chunks, with CRLF, comments and multi-line data", () => {
  const parser = new SseParser();
  const text =
    'id: 7\r\nevent: chunk\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: keep-alive\n\nid: 8\nevent: heartbeat\ndata: {}\n\n';
  const frames = [];
  for (const piece of text.match(/[\s\S]{1,3}/g) ?? []) frames.push(...parser.push(piece));
  assert.deepEqual(frames, [
    { id: "7", event: "chunk", data: '{"a":\n1}' },
    { id: "8", event: "heartbeat", data: "{}" },
  ]);
});

test("keeps the last id for frames that carry none", () => {
  const parser = new SseParser();
  const frames = parser.push("id: 3\nevent: hello\ndata: {}\n\nevent: heartbeat\ndata: {}\n\n");
  assert.equal(frames[1]?.id, "3");
});

test("backs off exponentially with jitter up to the ceiling", () => {
  assert.equal(
    backoffMs(1, 1000, 30_000, () => 0),
    500,
  );
  assert.equal(
    backoffMs(1, 1000, 30_000, () => 1),
    1000,
  );
  assert.equal(
    backoffMs(4, 1000, 30_000, () => 1),
    8000,
  );
  assert.equal(
    backoffMs(20, 1000, 30_000, () => 1),
    30_000,
  );
});

test("drops repeated ids and forgets the oldest past its size", () => {
  const ids = new RecentIds(2);
  assert.equal(ids.add("a"), true);
  assert.equal(ids.add("a"), false);
  ids.add("b");
  ids.add("c");
  assert.equal(ids.add("a"), true);
});
