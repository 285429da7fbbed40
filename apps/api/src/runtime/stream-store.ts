import type { DatabaseHandle } from "@fleet/db";
import {
  encodeFrame,
  type FrameInput,
  type ReplayAnswer,
  type StoredFrame,
  type StreamFilter,
} from "./stream-frames.ts";

/** The NOTIFY channel every instance LISTENs on for stored frames. */
export const STREAM_CHANNEL = "stream_frames";

/** NOTIFY refuses payloads of 8,000 bytes or more; what does not fit goes by reference. */
const NOTIFY_MAX_BYTES = 7_900;
/**
 * A batch's frames are sent in NOTIFYs of the frames that start within each 3,900 bytes of the batch's
 * text, so a part of frames under 3,900 bytes each always fits, however many the batch holds. One NOTIFY
 * of the whole batch overflowed at ~20 frames (a flush under load) and every instance then read the
 * frames back from the table: a query a flush, on the pool the requests use.
 */
const PART_BYTES = 3_900;
/** Publishers' transactions take this lock first, so frame ids commit in increasing order. */
const PUBLISH_LOCK = 7_311_045_015;

/**
 * One statement stores a batch (`$1`, a JSON array of frames, each with its place `n`), in its own
 * transaction: it takes the publishers' lock before it draws ids, so ids commit in increasing order; stores
 * the frames in `stream_frames`, ids drawn in the batch's order; copies those that carry a lease id into
 * `run_frames`, up to `$2` a lease (the rows kept before, counted once for each lease in the batch, plus
 * this batch's); and sends the stored frames in NOTIFYs of at most ~7,800 bytes each, in id order (a
 * volatile output is computed after the sort), all delivered at the one commit; a part holding a frame too
 * large to fit is sent as the range of its ids instead.
 */
const STORE_FRAMES = `
with locked as (select pg_advisory_xact_lock(${PUBLISH_LOCK})), stored as (
  insert into stream_frames (workspace_id, fleet_id, event_id, lease_id, kind, payload, at)
  select f.workspace_id, f.fleet_id, f.event_id, f.lease_id, f.kind, f.payload, f.at
    from locked, jsonb_to_recordset($1::text::jsonb)
      as f(n int, workspace_id uuid, fleet_id uuid, event_id uuid, lease_id uuid, kind text, payload jsonb, at bigint)
   order by f.n
  returning id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at
), held as materialized (
  select l.lease_id,
         (select count(*) from run_frames k where k.lease_id = l.lease_id) as n
    from (select distinct lease_id from stored where lease_id is not null) as l
), kept as (
  insert into run_frames (id, lease_id, workspace_id, fleet_id, kind, payload, at)
  select r.id, r.lease_id, r.workspace_id, r.fleet_id, r.kind, r.payload, r.at
    from (select s.*, row_number() over (partition by s.lease_id order by s.id) as place
            from stored s where s.lease_id is not null) as r
    join held h on h.lease_id = r.lease_id
   where r.place <= $2::int - h.n
), framed as (
  select id, frame, sum(octet_length(frame) + 1) over (order by id) - octet_length(frame) - 1 as before
    from (select id, json_build_object(
            'id', id, 'workspace_id', workspace_id, 'fleet_id', fleet_id, 'event_id', event_id,
            'lease_id', lease_id, 'kind', kind, 'payload', payload, 'at', at)::text as frame
            from stored) as s
), parts as (
  select before / ${PART_BYTES} as part, '{"f":[' || string_agg(frame, ',' order by id) || ']}' as frames,
         min(id) as low, max(id) as high
    from framed group by 1
)
select pg_notify('${STREAM_CHANNEL}', case when octet_length(frames) > ${NOTIFY_MAX_BYTES}
         then json_build_object('r', json_build_array(low, high))::text else frames end)
  from parts order by part`;

/**
 * Stores a batch of frames in one round trip (see STORE_FRAMES): the replay window's rows, a lease's
 * first `runFramesPerLease` frames copied for its run review, and the NOTIFYs that fan them out.
 */
export async function storeFrames(
  handle: DatabaseHandle,
  batch: FrameInput[],
  runFramesPerLease: number,
): Promise<void> {
  const rows = batch.map((frame, n) => ({
    n,
    workspace_id: frame.workspaceId,
    fleet_id: frame.fleetId,
    event_id: frame.eventId,
    lease_id: frame.leaseId,
    kind: frame.kind,
    payload: frame.payload,
    at: frame.at,
  }));
  await handle.query(STORE_FRAMES, [JSON.stringify(rows), runFramesPerLease]);
}

/** The newest frame id stored; 0 before any. */
export async function newestFrameId(handle: DatabaseHandle): Promise<number> {
  const [row] = await handle.query<{ high: string | null }>("select max(id) as high from stream_frames");
  return Number(row?.high ?? 0);
}

/**
 * The frames of a workspace (a fleet, kinds) after `afterId`, or a reset when frames after it may have
 * left the window, or more than `maxFrames` follow it.
 */
export async function replayFrames(
  handle: DatabaseHandle,
  filter: StreamFilter,
  afterId: number,
  maxFrames: number,
): Promise<ReplayAnswer> {
  const [bounds] = await handle.query<{ low: string | null; high: string | null }>(
    "select min(id) as low, max(id) as high from stream_frames",
  );
  const low = Number(bounds?.low ?? 0);
  const high = Number(bounds?.high ?? 0);
  // Ids are never reused and the newest row is never pruned: an id past the newest was never issued here.
  if (afterId > high || (low > 0 && afterId < low - 1)) return { frames: [], reset: true };
  const rows = await handle.query<StoredFrame>(
    `select id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at from stream_frames
      where workspace_id = $1 and id > $2 and ($3::uuid is null or fleet_id = $3::uuid)
        and ($4::text[] is null or kind = any($4::text[]))
      order by id limit $5`,
    [
      filter.workspaceId,
      afterId,
      filter.fleetId,
      filter.kinds === null ? null : [...filter.kinds],
      maxFrames + 1,
    ],
  );
  if (rows.length > maxFrames) return { frames: [], reset: true };
  return {
    frames: rows.map((row) => ({ id: Number(row.id), frame: encodeFrame(parsed(row)) })),
    reset: false,
  };
}

/** The frames with ids `from` to `to`: a NOTIFY too large to carry them names their range. */
export async function framesBetween(
  handle: DatabaseHandle,
  from: number,
  to: number,
): Promise<StoredFrame[]> {
  const rows = await handle.query<StoredFrame>(
    `select id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at from stream_frames
      where id between $1 and $2 order by id`,
    [from, to],
  );
  return rows.map(parsed);
}

/** The frames after `afterId` (at most 10,000): those committed while a LISTEN was lost. */
export async function framesAfter(handle: DatabaseHandle, afterId: number): Promise<StoredFrame[]> {
  const rows = await handle.query<StoredFrame>(
    `select id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at from stream_frames
      where id > $1 order by id limit 10000`,
    [afterId],
  );
  return rows.map(parsed);
}

/**
 * Drops the replay window's frames stored before `before`, always keeping the newest (it bounds the ids
 * ever issued). The replay reads only `stream_frames`, so its window is its own whatever the runs keep.
 */
export async function pruneReplayWindow(handle: DatabaseHandle, before: number): Promise<void> {
  await handle.query("delete from stream_frames where at < $1 and id < (select max(id) from stream_frames)", [
    before,
  ]);
}

/** Drops the runs' frames (`run_frames`, the lease review's copy) published before `before`. */
export async function pruneRunFramesBefore(handle: DatabaseHandle, before: number): Promise<void> {
  await handle.query("delete from run_frames where at < $1", [before]);
}

/** A row read back: bigint columns arrive as strings from postgres.js. */
function parsed(row: StoredFrame): StoredFrame {
  return { ...row, id: Number(row.id), at: Number(row.at) };
}
