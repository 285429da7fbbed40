"use client";

import type { ChatLink } from "@fleet/contracts";
import { Button, type Column, ConfirmDialog, PagedTable, RelativeTime } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "../../styles/device-card.css";

const label = (link: ChatLink) => `${link.chat_user_id} in ${link.team_name ?? link.team_id}`;

/** The signed-in member's linked chat accounts, with remove. */
export function ChatLinksPanel() {
  const trpc = useTRPC();
  const list = useQuery(trpc.chatLinks.list.queryOptions({}));
  const [removing, setRemoving] = useState<ChatLink | null>(null);
  const columns: Column<ChatLink>[] = [
    { id: "user", header: "Chat user", rowHeader: true, cell: (link) => <code>{link.chat_user_id}</code> },
    { id: "team", header: "Team", cell: (link) => link.team_name ?? link.team_id },
    {
      id: "created",
      header: "Linked",
      width: "time",
      cell: (link) => <RelativeTime value={link.created_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "actions",
      align: "end",
      cell: (link) => (
        <Button size="sm" aria-label={`Remove chat link ${label(link)}`} onClick={() => setRemoving(link)}>
          Remove
        </Button>
      ),
    },
  ];
  return (
    <section className="card device-card" aria-labelledby="chat-links-heading">
      <h2 id="chat-links-heading" className="device-card__heading">
        Your chat accounts
      </h2>
      <p className="muted device-card__note">
        A linked chat account answers approval gates as you when it clicks a gate&apos;s buttons. To link one,
        click a gate&apos;s button in chat and follow the link you are sent.
      </p>
      {list.error ? (
        <ListProblem query={list} />
      ) : list.data === undefined ? (
        <ListLoading>Loading your chat accounts…</ListLoading>
      ) : list.data.items.length === 0 ? (
        <p className="muted">No chat account is linked to you.</p>
      ) : (
        <PagedTable
          caption="Your linked chat accounts, oldest first"
          columns={columns}
          rows={list.data.items}
          rowKey={(link) => link.id}
          rowData={(link) => ({ "data-chat-link-id": link.id })}
          busy={false}
          link={Link}
        />
      )}
      {removing ? <RemoveDialog link={removing} onClose={() => setRemoving(null)} /> : null}
    </section>
  );
}

function RemoveDialog({ link, onClose }: { link: ChatLink; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.chatLinks.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.chatLinks.list.pathKey() });
        onClose();
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      title={`Remove chat link ${label(link)}?`}
      confirmLabel="Remove link"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ link_id: link.id })}
    >
      <p className="dialog-text">
        Clicks by this chat account stop answering gates at once. It can be linked again from chat.
      </p>
    </ConfirmDialog>
  );
}
