import type { DeliveredSealed } from "@fleet/db";
import { leaseMasker, type Mask } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { scrub } from "./failures.ts";

/** The fewest milliseconds between two chunk frames of one call (docs/decisions/model-gateway.md). */
export const CHUNK_FRAME_MS = 50;
/** A frame's text at most (the activity route's bound on a chunk's text). */
const FRAME_CHARS = 64 * 1024;
/** A trailing word held back for the next frame at most this long: past it, it goes out as it is. */
const HELD_WORD_CHARS = 4096;
/**
 * A frame that is not the last leaves at least this much of the text for the next one, so a secret this
 * long or shorter (whitespace inside or not) has arrived whole before any frame could cut it.
 */
export const HELD_TAIL_CHARS = 128;
/** Cuts tried, each at an earlier whitespace, before a frame waits for more text instead. */
const CUT_TRIES = 8;

/** The index after the last space, tab or newline in `text` before `before`, or 0. */
function afterSpace(text: string, before: number): number {
  if (before <= 0) return 0;
  const from = before - 1;
  return (
    Math.max(text.lastIndexOf(" ", from), text.lastIndexOf("\n", from), text.lastIndexOf("\t", from)) + 1
  );
}

/**
 * Where a frame that is not the last may end: after a whitespace at least HELD_TAIL_CHARS before the
 * end (a word longer than HELD_WORD_CHARS is cut as it is), and never inside a secret: a cut is kept only
 * if masking the two sides apart gives what masking the whole does (else an earlier whitespace is tried).
 * 0: nothing goes out yet.
 */
export function frameCut(held: string, clean: (text: string) => string): number {
  const limit = held.length - HELD_TAIL_CHARS;
  if (limit <= 0) return 0;
  let cut = afterSpace(held, limit);
  if (cut === 0 && limit > HELD_WORD_CHARS) return limit;
  const whole = clean(held);
  for (let tries = 0; cut > 0 && tries < CUT_TRIES; tries++) {
    if (clean(held.slice(0, cut)) + clean(held.slice(cut)) === whole) return cut;
    cut = afterSpace(held, cut - 1);
  }
  return 0;
}

/** A NUL, or a surrogate without its pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it finds
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The run a call serves, as its frames name it. */
export interface LiveRun {
  id: string;
  fleetId: string;
  workspaceId: string;
  eventId: string;
  /**
   * The run's sealed deliveries as the call's admission read them: a delivery on another instance since
   * this instance cached the run's masker rebuilds it (lease-masker.ts), so no value waits out the TTL.
   */
  deliveredSealed?: DeliveredSealed[] | null;
}

/** What a gateway call tells the live tail: each text delta as it is relayed, and its end. */
export interface LiveOutput {
  /** A piece of the model's text. Synchronous and cheap: it only appends (the relay never waits on it). */
  onText(delta: string): void;
  /** The call ended: what is held goes out now. Idempotent. */
  end(): void;
}

/**
 * Publishes a call's model text on its fleet's live tail as `chunk` frames, coalesced: the first piece
 * goes out on the next turn, later ones at most one frame per CHUNK_FRAME_MS, the rest when the call ends. The
 * text is masked with the run's masker (a secret split across two deltas is masked whole: the trailing
 * word, the run after the last whitespace, is held for the next frame). The masker is read beside the
 * relay; until it is ready the text waits, and if it cannot be read nothing is published. The provider's
 * key, were the model ever to echo it, is replaced as in the relayed answer. `follows`: the request
 * carries an earlier assistant turn (an agent's next step), so its text starts after a blank line.
 */
export function liveOutput(
  ctx: ServiceContext,
  run: LiveRun,
  apiKey: string | null,
  follows = false,
): LiveOutput {
  let mask: Mask | null = null;
  let failed = false;
  let held = "";
  /** A call that continues a conversation begins its text on a new paragraph (the first text only). */
  let lead = follows ? "\n\n" : "";
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let ended = false;

  const clean = (text: string) => scrub(mask!(text), apiKey);
  const publish = (text: string, at: number) => {
    // A NUL or a lone surrogate (a vendor's JSON can carry both) would make the frame's jsonb row, and so
    // the flusher's whole batch, fail: each becomes U+FFFD.
    const masked = clean(text).replace(UNSTORABLE, "\uFFFD");
    for (let from = 0, to = 0; from < masked.length; from = to) {
      to = Math.min(masked.length, from + FRAME_CHARS);
      // Never between the two halves of a surrogate pair.
      if (to < masked.length && /[\ud800-\udbff]/.test(masked[to - 1]!)) to -= 1;
      ctx.streams.publish({
        workspaceId: run.workspaceId,
        fleetId: run.fleetId,
        eventId: run.eventId,
        leaseId: run.id,
        kind: "chunk",
        payload: { text: masked.slice(from, to) },
        at,
      });
    }
  };
  const flush = (final: boolean) => {
    timer = null;
    if (mask === null || held === "") return;
    let cut = held.length;
    if (!final) {
      // A timer may fire a millisecond early: never two frames closer than CHUNK_FRAME_MS.
      if (ctx.now() - last < CHUNK_FRAME_MS) return schedule();
      cut = frameCut(held, clean);
    }
    if (cut === 0) return;
    const text = held.slice(0, cut);
    held = held.slice(cut);
    // One clock for the spacing and the frames' `at`, so the frames show the spacing they were given.
    last = ctx.now();
    publish(text, last);
  };
  // Always on a timer, never inside the relay's turn: masking and publishing cost the relay nothing.
  const schedule = () => {
    if (timer !== null || mask === null || ended) return;
    timer = setTimeout(() => flush(false), Math.max(0, last + CHUNK_FRAME_MS - ctx.now()));
  };

  leaseMasker(ctx, ctx.db, run).then(
    (ready) => {
      mask = ready;
      if (ended) flush(true);
      else schedule();
    },
    () => {
      failed = true;
      held = "";
    },
  );

  return {
    onText(delta) {
      if (failed || ended || delta === "") return;
      held += lead + delta;
      lead = "";
      schedule();
    },
    end() {
      if (ended) return;
      ended = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      flush(true);
    },
  };
}

/** The model's text in one OpenAI streamed chunk (`choices[0].delta.content`), or "" when none. */
export function deltaText(chunk: unknown): string {
  const choices = (chunk as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return "";
  for (const choice of choices) {
    const c = choice as { index?: unknown; delta?: { content?: unknown } } | null;
    if (c !== null && (c.index ?? 0) === 0 && typeof c.delta?.content === "string") return c.delta.content;
  }
  return "";
}

/** The model's text in an unstreamed OpenAI answer (`choices[0].message.content`), or "" when none. */
export function answerText(answer: unknown): string {
  const choices = (answer as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return "";
  for (const choice of choices) {
    const c = choice as { index?: unknown; message?: { content?: unknown } } | null;
    if (c !== null && (c.index ?? 0) === 0 && typeof c.message?.content === "string")
      return c.message.content;
  }
  return "";
}
