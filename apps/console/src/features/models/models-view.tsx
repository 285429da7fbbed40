"use client";

import type { AdminModel } from "@fleet/contracts";
import { hasScope } from "@fleet/contracts/scopes";
import { Button, type Column, PagedTable, PlusIcon, type ProblemView } from "@fleet/ui";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { ListProblem } from "../../components/query-problem.tsx";
import { formatCount } from "../../lib/format.ts";
import { useTRPC } from "../../lib/trpc.ts";
import {
  OperatorAccessCard,
  OperatorIdentity,
  type OperatorSession,
  refusesOperator,
} from "../runners/operator-access.tsx";
import { DeleteModelDialog, ModelDialog } from "./model-dialogs.tsx";
import { formatPerMillion } from "./money.ts";
import { ProviderSection } from "./provider-section.tsx";
import { filterProviders, type ModelsPosition, modelsHref, providerLabel } from "./urls.ts";
import "../../styles/card-parts.css";
import "../../styles/table-cells.css";
import "./skeleton.css";
import "./models-view.css";

/** One catalogue row as the table shows it; `admin` only when the operator token reads the admin rows. */
interface Row {
  key: string;
  provider: string;
  model: string;
  context: number;
  input: number;
  cached: number;
  output: number;
  admin?: AdminModel;
}

const MODELS_COMMAND = 'pnpm fleetctl operator --scopes "model:admin" --json';

export function ModelsView({
  operator,
  accessProblem,
  position,
}: {
  operator: OperatorSession | null;
  accessProblem: ProblemView | null;
  position: ModelsPosition;
}) {
  const trpc = useTRPC();
  const query = { provider: position.provider, starting_after: position.startingAfter, limit: 50 };
  // Every member reads the catalogue; an operator token that may read the admin rows also edits them.
  const operatorReads =
    operator !== null && (operator.scopes === null || hasScope(operator.scopes, "model:read"));
  const canWrite =
    operator !== null && (operator.scopes === null || hasScope(operator.scopes, "model:write"));
  const canDelete =
    operator !== null && (operator.scopes === null || hasScope(operator.scopes, "model:admin"));
  const admin = useQuery(
    trpc.models.adminList.queryOptions(operatorReads ? query : skipToken, {
      placeholderData: keepPreviousData,
      retry: false,
    }),
  );
  const adminWorks = operatorReads && !refusesOperator(admin.error);
  const tenant = useQuery(
    trpc.models.list.queryOptions(adminWorks ? skipToken : query, { placeholderData: keepPreviousData }),
  );
  const list = adminWorks ? admin : tenant;
  const rows: Row[] | undefined = adminWorks
    ? admin.data?.items.map((model) => ({
        key: model.uid,
        provider: model.provider,
        model: model.model_id,
        context: model.context_cap_tokens,
        input: model.input_nanos_per_mtok,
        cached: model.cached_input_nanos_per_mtok,
        output: model.output_nanos_per_mtok,
        admin: model,
      }))
    : tenant.data?.models.map((model) => ({
        key: `${model.provider}/${model.id}`,
        provider: model.provider,
        model: model.id,
        context: model.context_cap_tokens,
        input: model.input_nanos_per_mtok,
        cached: model.cached_input_nanos_per_mtok,
        output: model.output_nanos_per_mtok,
      }));
  const nextCursor = (adminWorks ? admin.data?.next_cursor : tenant.data?.next_cursor) ?? null;
  const [editing, setEditing] = useState<AdminModel | "new" | null>(null);
  const [removing, setRemoving] = useState<AdminModel | null>(null);

  const price = (value: (row: Row) => number, header: string, id: string): Column<Row> => ({
    id,
    header,
    width: "number",
    align: "end",
    cell: (row) => <span className="model-price">{formatPerMillion(value(row))}</span>,
  });
  const columns: Column<Row>[] = [
    {
      id: "model",
      header: "Model",
      rowHeader: true,
      cell: (row) => <code className="model-name">{row.model}</code>,
    },
    { id: "provider", header: "Provider", cell: (row) => providerLabel(row.provider) },
    {
      id: "context",
      header: "Context",
      width: "number",
      align: "end",
      cell: (row) => `${formatCount(row.context)} tokens`,
    },
    price((row) => row.input, "Input / M tokens", "input"),
    price((row) => row.cached, "Cached input / M", "cached"),
    price((row) => row.output, "Output / M tokens", "output"),
  ];
  if (adminWorks && (canWrite || canDelete)) {
    columns.push({
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (row) =>
        row.admin ? (
          <span className="row-actions">
            {canWrite ? (
              <Button size="sm" aria-label={`Edit model ${row.model}`} onClick={() => setEditing(row.admin!)}>
                Edit
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                size="sm"
                aria-label={`Remove model ${row.model}`}
                onClick={() => setRemoving(row.admin!)}
              >
                Remove
              </Button>
            ) : null}
          </span>
        ) : null,
    });
  }

  return (
    <div className="page models">
      <PageHeader
        title="Models"
        description="The models fleets can run on, with their context size and what a million tokens cost. Your provider setting below picks the one your fleets use."
        actions={
          adminWorks && canWrite ? (
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setEditing("new")}>
              Add model
            </Button>
          ) : null
        }
      />
      <ProviderSection />
      <section className="card" aria-labelledby="catalogue-heading">
        <header className="card__header models__header">
          <h2 id="catalogue-heading" className="card__title">
            Catalogue
          </h2>
          <nav aria-label="Filter by provider" className="models__filter">
            <ul>
              {[undefined, ...filterProviders].map((provider) => (
                <li key={provider ?? "all"}>
                  <Link
                    href={modelsHref({ provider })}
                    className="models__filter-link"
                    aria-current={position.provider === provider ? "true" : undefined}
                    scroll={false}
                  >
                    {provider ? providerLabel(provider) : "All providers"}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        {list.error && !list.isPlaceholderData ? (
          <ListProblem query={list} />
        ) : rows === undefined ? (
          <CatalogueSkeleton />
        ) : rows.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">
              {position.provider ? `No ${providerLabel(position.provider)} models` : "The catalogue is empty"}
            </p>
            <p className="empty-state__text">
              {adminWorks && canWrite
                ? "Add a model with its context size and prices; tenants can then choose it."
                : "An operator adds models to the catalogue; until then fleets use the platform default."}
            </p>
          </div>
        ) : (
          <PagedTable
            caption={`Catalogue models${position.provider ? ` of ${providerLabel(position.provider)}` : ""}, oldest first`}
            columns={columns}
            rows={rows}
            rowKey={(row) => row.key}
            rowData={(row) => ({ "data-model": row.model, "data-provider": row.provider })}
            busy={list.isPlaceholderData}
            link={Link}
            scrollRegion="Catalogue table"
            pager={{
              label: "Pages of models",
              summary: `${rows.length} shown${adminWorks && admin.data ? ` · ${admin.data.total} in the catalogue` : ""}`,
              firstHref: position.startingAfter ? modelsHref({ provider: position.provider }) : undefined,
              nextHref: nextCursor
                ? modelsHref({ provider: position.provider, startingAfter: nextCursor })
                : undefined,
            }}
          />
        )}
      </section>
      {operator !== null && adminWorks ? (
        <OperatorIdentity session={operator} returnTo="/models" />
      ) : (
        <OperatorAccessCard
          problem={accessProblem}
          refused={operator !== null}
          returnTo={modelsHref(position)}
          command={MODELS_COMMAND}
          explanation={
            <p className="operator-access__text">
              The catalogue belongs to the platform: adding, editing and removing models needs an operator
              token with <code>model:write</code> (<code>model:admin</code> also removes). Create one on the
              server and paste it here:
            </p>
          }
        />
      )}
      {editing !== null ? (
        <ModelDialog model={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {removing !== null ? <DeleteModelDialog model={removing} onClose={() => setRemoving(null)} /> : null}
    </div>
  );
}

/** The table's shape while the first page loads. */
function CatalogueSkeleton() {
  return (
    <div className="card__body skeleton-rows" role="status" aria-label="Loading models">
      {[0, 1, 2, 3].map((row) => (
        <span key={row} className="skeleton-line" />
      ))}
    </div>
  );
}
