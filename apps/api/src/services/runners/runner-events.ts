import { type Database, runnerEvents, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";

export type RunnerEventType = (typeof runnerEvents.$inferInsert)["eventType"];

export async function recordRunnerEvent(
  db: Database | Tx,
  runnerId: string,
  eventType: RunnerEventType,
  at: number,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(runnerEvents).values({ id: newId(at), runnerId, eventType, detail, createdAt: at });
}
