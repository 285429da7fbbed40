"use client";

import { type Column, PagedTable, RelativeTime } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import type { Gate } from "./answer.ts";
import { Countdown } from "./countdown.tsx";
import { actionLabel } from "./labels.ts";
import "./quorum.css";
import "./gate-table.css";

export interface GateTableProps {
  gates: Gate[];
  workspaceName: string;
  /** The gate open in the detail pane. */
  current: string | undefined;
  hrefFor: (gateId: string) => string;
  /** Opens a gate in the pane (a plain click on its link; other clicks follow the link). */
  onOpen: (gateId: string) => void;
  checked: ReadonlySet<string>;
  onCheck: (gateId: string, checked: boolean) => void;
  /** The gates whose answers are in flight. */
  answering: ReadonlySet<string>;
  busy: boolean;
  /** Pending gates show their time left; answered ones when they were answered. */
  pendingTab: boolean;
  /** Whether the person may answer gates: without approval:resolve there is nothing to select them for. */
  selectable: boolean;
}

/**
 * One page of gates, oldest first: a checkbox to answer several at once, the action (a link that opens it
 * in the pane), the fleet, the time left before auto-deny (or, for answered gates, when they were
 * answered), the kind and the blast radius.
 */
export function GateTable({
  gates,
  workspaceName,
  current,
  hrefFor,
  onOpen,
  checked,
  onCheck,
  answering,
  busy,
  pendingTab,
  selectable,
}: GateTableProps) {
  const select: Column<Gate> = {
    id: "select",
    header: "Select",
    headerHidden: true,
    cell: (gate) => (
      <input
        type="checkbox"
        className="gate-check"
        aria-label={`Select ${actionLabel(gate)} of ${gate.fleet_name}`}
        checked={checked.has(gate.gate_id)}
        onChange={(event) => onCheck(gate.gate_id, event.target.checked)}
      />
    ),
  };
  const columns: Column<Gate>[] = [
    ...(selectable ? [select] : []),
    {
      id: "action",
      header: "Action and fleet",
      rowHeader: true,
      cell: (gate) => (
        <span className="gate-name">
          <Link
            href={hrefFor(gate.gate_id)}
            scroll={false}
            className="gate-link"
            aria-current={gate.gate_id === current ? "true" : undefined}
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              onOpen(gate.gate_id);
            }}
          >
            {actionLabel(gate)}
          </Link>
          <span className="gate-meta">
            <span className="gate-fleet">
              <span className="ui-visually-hidden">Fleet </span>
              {gate.fleet_name}
            </span>
            <span aria-hidden="true">·</span>
            <RelativeTime value={gate.requested_at} />
          </span>
        </span>
      ),
    },
    {
      id: "time",
      header: pendingTab ? "Time left" : "Answered",
      width: "time",
      cell: (gate) =>
        answering.has(gate.gate_id) ? (
          <span className="muted">Answering…</span>
        ) : gate.status === "pending" ? (
          <span className="gate-time">
            <Countdown requestedAt={gate.requested_at} timeoutAt={gate.timeout_at} compact />
            {gate.required_approvals > 1 ? (
              <span className="gate-quorum">
                {gate.approvals.filter((a) => a.counted).length} of {gate.required_approvals}
                <span className="ui-visually-hidden"> approvals</span>
              </span>
            ) : null}
          </span>
        ) : // The tab says the outcome; the column says when.
        gate.resolved_at !== null ? (
          <RelativeTime value={gate.resolved_at} />
        ) : null,
    },
    // After the time left: beside the detail pane the list is narrow, and what is urgent shows first.
    { id: "kind", header: "Kind", cell: (gate) => <code className="gate-kind">{gate.gate_kind}</code> },
    {
      id: "blast",
      header: "Blast radius",
      cell: (gate) => <span className="gate-blast">{gate.blast_radius}</span>,
    },
  ];
  return (
    <PagedTable
      caption={`Approval gates in the workspace ${workspaceName}, oldest first`}
      columns={columns}
      rows={gates}
      rowKey={(gate) => gate.gate_id}
      busy={busy}
      rowData={(gate) => ({
        "data-gate-id": gate.gate_id,
        "data-status": gate.status,
        "data-current": gate.gate_id === current ? "true" : undefined,
        "data-checked": checked.has(gate.gate_id) ? "true" : undefined,
      })}
    />
  );
}
