"use client";

import { RelativeTime } from "@fleet/ui";
import type { ReactNode } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { UUID } from "../../lib/uuid.ts";
import { formatDuration } from "../approvals/time-left.ts";
import { idKind, isInstant, keyWords } from "./action-words.ts";

interface Context {
  workspaceId: string | undefined;
  fleetId: string | undefined;
  me: string | undefined;
}

/** One detail's value as people read it: names for ids, dates for instants, words for the rest. */
function detailValue(key: string, value: unknown, context: Context): ReactNode {
  if (value === null || value === undefined)
    return <span className="muted">{key === "reason" ? "none given" : "none"}</span>;
  if (isInstant(key, value)) return <RelativeTime value={value} />;
  if (typeof value === "number" && key.endsWith("_ms")) return formatDuration(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") {
    const kind = idKind(key);
    if (kind !== null && UUID.test(value))
      return (
        <EntityName
          principal={`${kind}:${value}`}
          workspaceId={context.workspaceId}
          fleetId={context.fleetId}
          me={context.me}
        />
      );
    return key === "reason" ? <q className="audit-reason">{value}</q> : value;
  }
  if (Array.isArray(value))
    return value.length === 0 ? (
      <span className="muted">none</span>
    ) : (
      value.map((item, i) => (
        <span key={i} className="audit-details__item">
          {detailValue(key, item, context)}
        </span>
      ))
    );
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    // A move (`status: {from, to}`): "active → killed".
    if (entries.length === 2 && "from" in value && "to" in value) {
      const move = value as { from: unknown; to: unknown };
      return (
        <>
          {detailValue(key, move.from, context)} → {detailValue(key, move.to, context)}
        </>
      );
    }
    return <DetailList entries={entries} context={context} />;
  }
  return String(value);
}

function DetailList({ entries, context }: { entries: [string, unknown][]; context: Context }) {
  return (
    <dl className="audit-details">
      {entries.map(([key, value]) => (
        <div key={key} data-key={key}>
          <dt>{keyWords(key)}</dt>
          <dd>{detailValue(key, value, context)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The facts an audited act recorded, field by field and as people read them: ids by name (with a link where
 * the name has a page), instants as dates with their zone (relative, the absolute time on hover), durations
 * in words, a reason quoted; nested facts the same way. Never epoch milliseconds or a bare id where a name
 * is known.
 */
export function AuditDetails({
  details,
  workspaceId,
  me,
}: {
  details: Record<string, unknown>;
  workspaceId: string | undefined;
  me: string | undefined;
}) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="muted">—</span>;
  const fleetId = typeof details.fleet_id === "string" ? details.fleet_id : undefined;
  return <DetailList entries={entries} context={{ workspaceId, fleetId, me }} />;
}
