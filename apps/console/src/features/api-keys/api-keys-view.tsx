"use client";

import type { ApiKeyItem } from "@fleet/contracts";
import { Button, PlusIcon } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { ListBody } from "../../components/list-body.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { usePageActions } from "../../lib/commands.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { CreateKeyDialog } from "./create-key-dialog.tsx";
import { DeleteKeyDialog, RevokeKeyDialog } from "./key-action-dialogs.tsx";
import { KeysTable } from "./keys-table.tsx";
import { keysHref, type ListPosition } from "./urls.ts";

type Pending = { action: "revoke" | "delete"; key: ApiKeyItem } | null;

export function ApiKeysView(position: ListPosition) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.apiKeys.list.queryOptions(
      { sort: position.sort, limit: position.limit, starting_after: position.startingAfter },
      { placeholderData: keepPreviousData },
    ),
  );
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  usePageActions([{ label: "Create API key", keywords: "new token", run: () => setCreating(true) }]);

  return (
    <div className="page">
      <PageHeader
        title="API keys"
        description="Tenant API keys let scripts and services call the Fleet Control Plane API as you. Each key is shown once, when it is created."
        actions={
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
            Create API key
          </Button>
        }
      />
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading" className="ui-visually-hidden">
          Keys
        </h2>
        <ListBody
          list={list}
          loading="Loading API keys…"
          ways={
            position.startingAfter ? (
              <Link
                className="ui-button ui-button--secondary ui-button--sm"
                href={keysHref({ ...position, startingAfter: undefined })}
              >
                Back to the first page
              </Link>
            ) : null
          }
        >
          {(data) =>
            data.items.length === 0 ? (
              <div className="empty-state">
                <p className="empty-state__title">
                  {position.startingAfter ? "No more keys" : "No API keys yet"}
                </p>
                <p className="empty-state__text">
                  {position.startingAfter
                    ? "This page is past the last key."
                    : "Create a key for each script or service that calls the API, so each can be revoked alone."}
                </p>
                {position.startingAfter ? (
                  <Link
                    className="ui-button ui-button--secondary"
                    href={keysHref({ ...position, startingAfter: undefined })}
                  >
                    Back to the first page
                  </Link>
                ) : null}
              </div>
            ) : (
              <KeysTable
                keys={data.items}
                position={position}
                busy={list.isPlaceholderData}
                onRevoke={(key) => setPending({ action: "revoke", key })}
                onDelete={(key) => setPending({ action: "delete", key })}
                pager={{
                  label: "Pages of API keys",
                  summary: `${data.items.length} shown · ${data.total} ${data.total === 1 ? "key" : "keys"} in this tenant`,
                  firstHref: position.startingAfter
                    ? keysHref({ ...position, startingAfter: undefined })
                    : undefined,
                  nextHref: data.next_cursor
                    ? keysHref({ ...position, startingAfter: data.next_cursor })
                    : undefined,
                }}
              />
            )
          }
        </ListBody>
      </section>
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
      {pending?.action === "revoke" ? (
        <RevokeKeyDialog apiKey={pending.key} onClose={() => setPending(null)} />
      ) : null}
      {pending?.action === "delete" ? (
        <DeleteKeyDialog apiKey={pending.key} onClose={() => setPending(null)} />
      ) : null}
    </div>
  );
}
