"use client";

import { Badge, type Column, PagedTable, RelativeTime, TextField } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { FilterForm } from "../../components/filter-form.tsx";
import { Link } from "../../components/link.tsx";
import { ListBody } from "../../components/list-body.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { type RouterOutputs, useTRPC } from "../../lib/trpc.ts";
import { type FleetPosition, fleetHref } from "../../lib/urls.ts";
import "../../styles/card-parts.css";
import "./memories-panel.css";

type MemoryItem = RouterOutputs["memories"]["list"]["items"][number];

const columns: Column<MemoryItem>[] = [
  {
    id: "key",
    header: "Key",
    rowHeader: true,
    cell: (memory) => <code className="memory-key">{memory.key}</code>,
  },
  {
    id: "category",
    header: "Category",
    width: "status",
    cell: (memory) => <Badge tone="neutral">{memory.category}</Badge>,
  },
  {
    id: "content",
    header: "Content",
    cell: (memory) => <p className="memory-content">{memory.content}</p>,
  },
  {
    id: "updated",
    header: "Updated",
    width: "time",
    cell: (memory) => <RelativeTime value={memory.updated_at} />,
  },
];

/**
 * What the fleet remembers, newest first: filter by an exact category, search words in key and content.
 * Filters and page live in the URL.
 */
export function MemoriesPanel({ fleet, position }: { fleet: FleetView; position: FleetPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { category, q, memoriesAfter } = position;
  const list = useQuery(
    trpc.memories.list.queryOptions(
      {
        workspace_id: position.workspaceId,
        fleet_id: position.fleetId,
        ...(category ? { category } : {}),
        ...(q ? { query: q } : {}),
        ...(memoriesAfter ? { starting_after: memoriesAfter } : {}),
      },
      { placeholderData: keepPreviousData },
    ),
  );
  const href = (patch: Partial<FleetPosition>) => fleetHref({ ...position, ...patch });
  const filtered = Boolean(category || q);
  useShortcuts("Memories", [
    {
      key: "/",
      description: "Search the memories",
      run: () => document.querySelector<HTMLInputElement>('.memories input[name="q"]')?.focus(),
    },
  ]);

  return (
    <div className="memories">
      <FilterForm
        label="Filter memories"
        submitLabel="Search memories"
        clearLabel="Clear"
        clearHref={
          filtered ? href({ category: undefined, q: undefined, memoriesAfter: undefined }) : undefined
        }
        check={(read) => {
          router.push(
            href({
              category: read("category") || undefined,
              q: read("q") || undefined,
              memoriesAfter: undefined,
            }),
          );
          return {};
        }}
      >
        {() => (
          <>
            <TextField
              key={`category:${category ?? ""}`}
              name="category"
              label="Category"
              defaultValue={category ?? ""}
              placeholder="Exact category"
              autoComplete="off"
              maxLength={200}
            />
            <TextField
              key={`q:${q ?? ""}`}
              name="q"
              type="search"
              label="Search"
              defaultValue={q ?? ""}
              placeholder="Words in key or content"
              autoComplete="off"
              maxLength={500}
            />
          </>
        )}
      </FilterForm>
      <ListBody list={list} loading="Loading memories…" retry="never">
        {(data) =>
          data.items.length === 0 ? (
            <div className="empty-state empty-state--compact">
              <p className="empty-state__title">
                {memoriesAfter ? "No more memories" : filtered ? "No memories match" : "No memories yet"}
              </p>
              <p className="empty-state__text">
                {filtered
                  ? "Try another category or other words; every word must match."
                  : `${fleet.name} keeps what it learns between runs here.`}
              </p>
            </div>
          ) : (
            <PagedTable
              caption={`Memories of the fleet ${fleet.name}, newest first`}
              columns={columns}
              rows={data.items}
              rowKey={(memory) => memory.key}
              rowData={(memory) => ({ "data-category": memory.category })}
              busy={list.isPlaceholderData}
              pager={{
                label: "Pages of memories",
                summary: `${data.items.length} shown · ${data.total} ${data.total === 1 ? "memory" : "memories"}${filtered ? " match" : ""}`,
                firstHref: memoriesAfter ? href({ memoriesAfter: undefined }) : undefined,
                nextHref: data.next_cursor ? href({ memoriesAfter: data.next_cursor }) : undefined,
                link: Link,
              }}
            />
          )
        }
      </ListBody>
    </div>
  );
}
