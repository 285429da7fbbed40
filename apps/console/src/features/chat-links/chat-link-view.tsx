"use client";

import { Button, Callout, ProblemAlert } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fact } from "../../components/fact.tsx";
import { Link } from "../../components/link.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ChatLinksPanel } from "./chat-links-panel.tsx";
import "../../styles/device-card.css";
import "./chat-link-view.css";

/**
 * What the link says it binds: the chat user and team, read from the token's payload for display only.
 * The API checks the token's signature when it is redeemed, so an altered payload links nobody.
 */
function claimsOf(token: string): { user: string; team: string | null } | null {
  try {
    const payload = token.slice(0, token.indexOf("."));
    const base64 = payload.replaceAll("-", "+").replaceAll("_", "/");
    const claims = JSON.parse(atob(base64)) as { u?: unknown; m?: unknown };
    if (typeof claims.u !== "string") return null;
    return { user: claims.u, team: typeof claims.m === "string" ? claims.m : null };
  } catch {
    return null;
  }
}

/** Confirms a chat link for the signed-in member: shown first, spent only when they press Link. */
export function ChatLinkView({ token }: { token: string }) {
  const trpc = useTRPC();
  const me = useQuery(trpc.users.getMe.queryOptions({}));
  const queryClient = useQueryClient();
  const redeem = useMutation(
    trpc.chatLinks.redeem.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.chatLinks.list.pathKey() }),
    }),
  );
  const claims = claimsOf(token);
  return (
    <div className="page chat-link-page">
      <PageHeader
        title="Link a chat account"
        description="A chat user clicked a gate's button and was sent this link. Once linked, their clicks answer approval gates as you, with your scopes and under each gate's rule. Link only a chat account that is yours."
      />
      <section className="card device-card" aria-labelledby="chat-link-heading">
        <h2 id="chat-link-heading" className="device-card__heading">
          Answer gates from chat as you?
        </h2>
        {claims === null ? (
          <Callout tone="warning">
            This link is incomplete. Click the gate&apos;s button in chat again for a fresh one.
          </Callout>
        ) : (
          <>
            <dl className="chat-link-facts">
              <Fact term="Chat user">
                <code>{claims.user}</code>
              </Fact>
              <Fact term="Team">{claims.team ?? <span className="muted">not named</span>}</Fact>
              <Fact term="Acts as">
                {me.data ? `${me.data.email} in ${me.data.tenant_name}` : "you, in this tenant"}
              </Fact>
            </dl>
            {redeem.data === undefined ? (
              <div className="chat-link-actions">
                <Button variant="primary" pending={redeem.isPending} onClick={() => redeem.mutate({ token })}>
                  Link chat account
                </Button>
              </div>
            ) : null}
          </>
        )}
        {redeem.error ? <ProblemAlert problem={problemOf(redeem.error)} /> : null}
        <div role="status" aria-live="polite">
          {redeem.data ? (
            <Callout tone="success">
              <strong>Linked.</strong> Go back to chat and click the gate&apos;s button again. You can remove
              this link any time on the <Link href="/connectors">Connectors</Link> page.
            </Callout>
          ) : null}
        </div>
      </section>
      <ChatLinksPanel />
    </div>
  );
}
