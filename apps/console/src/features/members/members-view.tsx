"use client";

import type { MemberItem } from "@fleet/contracts";
import { Button, PlusIcon } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { ListBody } from "../../components/list-body.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { usePageActions } from "../../lib/commands.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { InviteMemberDialog } from "./invite-member-dialog.tsx";
import { EditMemberDialog, RemoveMemberDialog } from "./member-dialogs.tsx";
import { MembersTable } from "./members-table.tsx";
import { type MembersPosition, membersHref } from "./urls.ts";

type Pending = { action: "edit" | "remove"; member: MemberItem } | null;

export function MembersView(position: MembersPosition) {
  const trpc = useTRPC();
  const me = useQuery(trpc.users.getMe.queryOptions({}));
  const list = useQuery(
    trpc.members.list.queryOptions(
      { limit: position.limit, starting_after: position.startingAfter },
      { placeholderData: keepPreviousData },
    ),
  );
  const [inviting, setInviting] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  usePageActions([{ label: "Invite member", keywords: "new person add", run: () => setInviting(true) }]);
  const first = position.startingAfter ? membersHref({ ...position, startingAfter: undefined }) : undefined;

  return (
    <div className="page">
      <PageHeader
        title="Members"
        description="The people of this tenant, their role and their scopes. Changes reach their sessions, command-line credentials and API keys at once."
        actions={
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setInviting(true)}>
            Invite member
          </Button>
        }
      />
      <section className="card" aria-labelledby="members-heading">
        <h2 id="members-heading" className="ui-visually-hidden">
          Members
        </h2>
        <ListBody
          list={list}
          loading="Loading members…"
          ways={
            first ? (
              <Link className="ui-button ui-button--secondary ui-button--sm" href={first}>
                Back to the first page
              </Link>
            ) : null
          }
        >
          {(data) => (
            <MembersTable
              members={data.items}
              selfId={me.data?.user_id}
              busy={list.isPlaceholderData}
              onEdit={(member) => setPending({ action: "edit", member })}
              onRemove={(member) => setPending({ action: "remove", member })}
              pager={{
                label: "Pages of members",
                summary: `${data.items.length} shown · ${data.total} ${data.total === 1 ? "member" : "members"} in this tenant`,
                firstHref: first,
                nextHref: data.next_cursor
                  ? membersHref({ ...position, startingAfter: data.next_cursor })
                  : undefined,
              }}
            />
          )}
        </ListBody>
      </section>
      <InviteMemberDialog
        open={inviting}
        onClose={() => setInviting(false)}
        callerRole={list.data?.items.find((member) => member.user_id === me.data?.user_id)?.role}
      />
      {pending?.action === "edit" ? (
        <EditMemberDialog member={pending.member} onClose={() => setPending(null)} />
      ) : null}
      {pending?.action === "remove" ? (
        <RemoveMemberDialog member={pending.member} onClose={() => setPending(null)} />
      ) : null}
    </div>
  );
}
