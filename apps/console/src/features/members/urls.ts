import { listMembers } from "@fleet/contracts/members/list-members";

export interface MembersPosition {
  limit: number;
  startingAfter?: string | undefined;
}

const defaultLimit = listMembers.query.limit.parse(undefined);

/** The members page's URL for a list position; defaults are left out so the plain URL stays plain. */
export function membersHref({ limit, startingAfter }: MembersPosition): string {
  const params = new URLSearchParams();
  if (limit !== defaultLimit) params.set("limit", String(limit));
  if (startingAfter) params.set("starting_after", startingAfter);
  const query = params.toString();
  return query ? `/members?${query}` : "/members";
}
