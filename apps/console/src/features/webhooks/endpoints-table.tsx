"use client";

import {
  ActionMenu,
  Badge,
  type Column,
  GuardedButton,
  type MenuAction,
  PagedTable,
  RelativeTime,
} from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import { useLacking } from "../../lib/access.ts";
import { type Endpoint, endpointName, managedReason } from "./endpoint.ts";
import { EndpointHealth } from "./endpoint-health.tsx";
import { disabledWords } from "./health.ts";
import { endpointHref } from "./urls.ts";
import "./webhooks.css";

export type EndpointAction = "edit" | "rotate" | "enable" | "disable" | "delete";

export interface EndpointsTableProps {
  endpoints: Endpoint[];
  workspaceName: string;
  /** The workspace's fleets by id, for naming a fleet filter. */
  fleetNames: ReadonlyMap<string, string>;
  onAction: (action: EndpointAction, endpoint: Endpoint) => void;
}

/**
 * One row per endpoint: where it posts (a link to its page and delivery log), what it subscribes to, for
 * which fleets, whether it is on, how its receiver has been answering. Never its secret, which only the
 * create and rotate answers carry.
 */
export function EndpointsTable({ endpoints, workspaceName, fleetNames, onAction }: EndpointsTableProps) {
  // Reading needs webhook:read; a member without webhook:write sees why the changes are off.
  const cannotWrite = useLacking("webhook:write");
  const columns: Column<Endpoint>[] = [
    {
      id: "endpoint",
      header: "Endpoint",
      rowHeader: true,
      cell: (endpoint) => (
        <span className="webhook-endpoint">
          <Link
            className="webhook-endpoint__url"
            href={endpointHref({ workspaceId: endpoint.workspace_id, endpointId: endpoint.id })}
          >
            <code>{endpoint.url}</code>
          </Link>
          {endpoint.description ? (
            <span className="webhook-endpoint__description">{endpoint.description}</span>
          ) : null}
          {endpoint.managed_by === null ? null : (
            <span className="webhook-endpoint__managed">
              <Badge tone="neutral">Approval policy</Badge>
            </span>
          )}
          {/* In the first column, so a phone sees how the receiver answers without scrolling sideways. */}
          <EndpointHealth health={endpoint.health} />
        </span>
      ),
    },
    {
      id: "events",
      header: "Events",
      cell: (endpoint) => (
        <ul className="webhook-types" aria-label={`Event types of ${endpointName(endpoint)}`}>
          {endpoint.event_types.map((type) => (
            <li key={type}>
              <code>{type}</code>
            </li>
          ))}
        </ul>
      ),
    },
    {
      id: "fleet",
      header: "Fleets",
      cell: (endpoint) =>
        endpoint.fleet_id === null ? (
          <span className="muted">All fleets</span>
        ) : (
          <span>{fleetNames.get(endpoint.fleet_id) ?? "One fleet"}</span>
        ),
    },
    {
      id: "status",
      header: "Status",
      width: "status",
      cell: (endpoint) => {
        const off = disabledWords(endpoint);
        return off === null ? (
          <Badge tone="success">Enabled</Badge>
        ) : (
          <span className="webhook-status">
            <Badge tone={endpoint.disabled_reason ? "warning" : "neutral"}>Disabled</Badge>
            {endpoint.disabled_reason ? <span className="webhook-status__why">{off}</span> : null}
          </span>
        );
      },
    },
    {
      id: "created",
      header: "Created",
      width: "time",
      cell: (endpoint) => <RelativeTime value={endpoint.created_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (endpoint) => {
        const name = endpointName(endpoint);
        const managed = managedReason(endpoint);
        const toggle: MenuAction = endpoint.enabled
          ? { label: "Disable", onSelect: () => onAction("disable", endpoint) }
          : { label: "Enable", onSelect: () => onAction("enable", endpoint) };
        // The notice endpoint is only enabled or disabled here; the rest is the approval policy's.
        const menu: MenuAction[] =
          managed === null
            ? [
                { label: "Rotate secret", onSelect: () => onAction("rotate", endpoint) },
                toggle,
                { label: "Delete", tone: "danger", onSelect: () => onAction("delete", endpoint) },
              ]
            : [toggle];
        return (
          <span className="ui-table-actions">
            <GuardedButton
              size="sm"
              aria-label={`Edit webhook endpoint ${name}`}
              unavailable={cannotWrite ?? managed}
              onClick={() => onAction("edit", endpoint)}
            >
              Edit
            </GuardedButton>
            {cannotWrite ? null : (
              <ActionMenu label={`More actions for webhook endpoint ${name}`} actions={menu} />
            )}
          </span>
        );
      },
    },
  ];
  return (
    <PagedTable
      caption={`Webhook endpoints of the workspace ${workspaceName}, newest first`}
      columns={columns}
      rows={endpoints}
      rowKey={(endpoint) => endpoint.id}
      rowData={(endpoint) => ({
        "data-endpoint-id": endpoint.id,
        "data-state": endpoint.enabled ? "enabled" : "disabled",
      })}
    />
  );
}
