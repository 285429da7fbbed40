"use client";

import { Badge, Button, SignOutIcon, Skeleton } from "@fleet/ui";
import { useFormStatus } from "react-dom";
import { signOut } from "../lib/auth-actions.ts";
import type { RouterOutputs } from "../lib/trpc.ts";
import "./identity.css";

type Me = RouterOutputs["users"]["getMe"];

function SignOutButton() {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant="ghost" size="sm" pending={pending} icon={<SignOutIcon />}>
      Sign out
    </Button>
  );
}

/** Who is signed in, in which tenant, and the way out. */
export function Identity({ me, failed = false }: { me: Me | undefined; failed?: boolean }) {
  const initial = (me?.display_name ?? me?.email ?? "?").slice(0, 1).toUpperCase();
  return (
    <section className="identity" aria-label="Signed in as">
      <div className="identity__who">
        <span className="identity__avatar" aria-hidden="true">
          {initial}
        </span>
        <div className="identity__text">
          {me || failed ? (
            // The whole address on hover: a long one is cut short to the sidebar's width.
            <span className="identity__email" title={me?.email}>
              {me?.email ?? "Not known"}
            </span>
          ) : (
            <Skeleton label="Loading who is signed in…" shape="lines" count={1} />
          )}
          <span className="identity__tenant" title={me ? `Tenant ${me.tenant_name}` : undefined}>
            {me ? `Tenant ${me.tenant_name}` : failed ? "The API did not answer" : "\u00a0"}
          </span>
        </div>
      </div>
      {me?.credential === "tenant_api_key" ? <Badge tone="info">Signed in with API key</Badge> : null}
      <form action={signOut}>
        <SignOutButton />
      </form>
    </section>
  );
}
