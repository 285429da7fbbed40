import type { FakeModelVendor } from "@fleet/testing/fake-model-vendor";
import { type Latencies, latencies, MESSAGES, post, type Target } from "./gateway-load.ts";
import { openFrameTail } from "./live-tail.ts";
import { othersMeter } from "./processes.ts";

interface ChunkFrame {
  lease_id: string;
  at: number;
  payload: { text: string };
}

/**
 * Issue 31 §4's last figure: a chunk frame from the gateway to a live-tail subscriber. One subscriber
 * holds the workspace's live tail (`GET /v1/workspaces/{ws}/events/stream?kinds=chunk`, the stream the
 * console follows) while one streamed call per lease runs at a time, each client reading its answer's
 * text as it comes. Each frame (it names its lease, and a lease's frames come in order) is matched to
 * the text it carries in its call's answer. Two times per frame:
 * - **delivery**: the subscriber's receipt minus the frame's `at` (the instant the gateway made it): the
 *   frame's own way from the gateway to a subscriber (store, hub, SSE write);
 * - **text lag**: the subscriber's receipt minus the client's receipt of the oldest text the frame
 *   carries: what a person watching the console waits behind the runner, coalescing (one frame per
 *   50 ms) and the tail held back for masking (128 characters) included.
 */
export interface LiveTailFigures {
  calls: number;
  frames: number;
  delivery: Latencies;
  textLag: Latencies;
  others: number | undefined;
  /** Frames whose text could not be matched to their call's answer (0 unless something is wrong). */
  unmatched: number;
}

/** A model writing at a person's reading pace, faster: 40 pieces, 10 ms apart (≈ 400 ms a call). */
const PACED = {
  kind: "answer" as const,
  text: "The quick brown fox jumps over the lazy dog, and then it rests. ".repeat(8),
  chunks: 40,
  chunkDelayMs: 10,
};

/** One call's answer as its client read it: the text so far at each piece's arrival. */
interface ReadCall {
  /** [length of the text once this piece arrived, performance.now() then] */
  marks: [number, number][];
  length: number;
  /** Characters of this call's text frames have carried so far. */
  framed: number;
}

/** A streamed call whose content deltas are noted as they arrive (the client parses what it reads). */
function readCall(target: Target, into: ReadCall): Promise<number> {
  const payload = JSON.stringify({ model: "x", messages: MESSAGES, stream: true });
  return post(target, payload, (answer, resolve) => {
    answer.setEncoding("utf8");
    let rest = "";
    answer.on("data", (piece: string) => {
      const now = performance.now();
      const lines = (rest + piece).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("data: {")) continue;
        const content = (JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] })
          .choices?.[0]?.delta?.content;
        if (typeof content !== "string" || content === "") continue;
        into.length += content.length;
        into.marks.push([into.length, now]);
      }
    });
    answer.on("end", () => resolve(answer.statusCode ?? 0));
  });
}

/**
 * Runs one streamed call per lease at a time for `seconds`, the tail open, and times each chunk frame
 * (see LiveTailFigures).
 */
export async function liveTailFigure(
  vendor: FakeModelVendor,
  serverPid: number | undefined,
  leases: { id: string; target: Target }[],
  tail: { url: string; token: string },
  seconds: number,
): Promise<LiveTailFigures> {
  const calls = new Map<string, ReadCall[]>(leases.map((lease) => [lease.id, []]));
  const delivery: number[] = [];
  const textLag: number[] = [];
  let unmatched = 0;
  const opened = await openFrameTail(tail.url, tail.token, (kind, frame: ChunkFrame, now, wall) => {
    if (kind !== "chunk") return;
    delivery.push(wall - frame.at);
    const queue = calls.get(frame.lease_id);
    let call = queue?.[0];
    // The lease's earlier calls whose text is all framed are done with.
    while (queue !== undefined && call !== undefined && call.framed >= call.length && queue.length > 1) {
      queue.shift();
      call = queue[0];
    }
    if (call === undefined) {
      unmatched++;
      return;
    }
    const from = call.framed;
    call.framed += frame.payload.text.length;
    const mark = call.marks.find(([length]) => length > from);
    if (mark === undefined) unmatched++;
    else textLag.push(now - mark[1]);
  });
  const others = othersMeter([serverPid]);
  let done = 0;
  const until = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      leases.map(async (lease) => {
        while (performance.now() < until) {
          vendor.script(PACED);
          const call: ReadCall = { marks: [], length: 0, framed: 0 };
          calls.get(lease.id)!.push(call);
          if ((await readCall(lease.target, call)) === 200) done++;
        }
      }),
    );
    // The last frames leave as their calls end: give the tail a moment to bring them.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    opened.close();
  }
  vendor.calls.length = 0;
  return {
    calls: done,
    frames: delivery.length,
    delivery: latencies(delivery),
    textLag: latencies(textLag),
    others: others(),
    unmatched,
  };
}
