"use client";

import { hasScope } from "@fleet/contracts/scopes";
import { Badge, Button, formatUtc, ProblemAlert, type ProblemView, TextField } from "@fleet/ui";
import { type ReactNode, useId, useState } from "react";
import { statusOf } from "../../lib/problem.ts";
import type { ApiError } from "../../lib/trpc.ts";
import "../../styles/card-parts.css";
import "../../styles/inline.css";
import "./operator-access.css";

/** What the page knows of the operator token in the cookie: never the token, only its claims. */
export interface OperatorSession {
  /** Null when the claims could not be read; the API then decides each action alone. */
  scopes: string[] | null;
  expiresAt: number | null;
}

const CREATE_COMMAND = 'pnpm fleetctl operator --scopes "runner:admin" --json';

/**
 * Why the operator cannot do what needs `scope`, or null when they can (or the console cannot tell: the
 * API is the judge either way).
 */
export function lacksScope(session: OperatorSession, scope: string, what: string): string | null {
  if (session.scopes === null || hasScope(session.scopes, scope)) return null;
  return `${what} needs the scope ${scope}; this operator token has ${session.scopes.join(", ") || "no scopes"}.`;
}

/** Forgets the token in this browser (a form post: the cookie is httpOnly, no script can clear it). */
export function ForgetOperatorForm({ size = "sm", returnTo }: { size?: "sm" | "md"; returnTo?: string }) {
  const [pending, setPending] = useState(false);
  return (
    <form method="post" action="/auth/operator/forget" onSubmit={() => setPending(true)}>
      {returnTo ? <input type="hidden" name="return_to" value={returnTo} /> : null}
      <Button type="submit" size={size} variant="ghost" pending={pending}>
        Forget operator token
      </Button>
    </form>
  );
}

/**
 * Paste an operator token: a plain form post to the console's route handler, which has the API check it
 * and keeps it in an httpOnly cookie. Shown wherever the runners pages have no working token.
 */
export function OperatorAccessCard({
  problem,
  refused,
  returnTo,
  explanation,
  command = CREATE_COMMAND,
}: {
  /** Why the last token was refused: the paste's or the API's answer to the one in the cookie. */
  problem: ProblemView | null;
  /** A token is in the cookie but the API refuses it. */
  refused: boolean;
  /** The operator page to come back to once the token works. */
  returnTo: string;
  /** Why the page needs the token, and what each scope allows there; the Runners page's by default. */
  explanation?: ReactNode;
  /** The command that creates a fitting token. */
  command?: string;
}) {
  const headingId = useId();
  const [pending, setPending] = useState(false);
  return (
    <section className="card operator-access" aria-labelledby={headingId}>
      <header className="card__header">
        <h2 id={headingId} className="card__title">
          Operator access
        </h2>
        {refused ? (
          <Badge tone="danger">Token refused</Badge>
        ) : (
          <Badge tone="neutral">No operator token</Badge>
        )}
      </header>
      <div className="operator-access__body">
        {explanation ?? (
          <p className="operator-access__text">
            Runners belong to the platform, not to your tenant, so these pages need an operator token beside
            your sign-in. Create one on the server and paste it here:
          </p>
        )}
        <pre className="operator-access__command">
          <code>{command}</code>
        </pre>
        {explanation ? null : (
          <p className="operator-access__text muted">
            <code>runner:read</code> shows runners; <code>runner:write</code> also edits policy, cordons,
            drains and reactivates; <code>runner:admin</code> also revokes and deletes.
          </p>
        )}
        <p className="operator-access__text muted">
          On an install started with <code>pnpm start</code> (dev mode), the owner signing in with a sign-in
          link gets one with the session.
        </p>
        {problem ? <ProblemAlert problem={problem} /> : null}
        <form
          method="post"
          action="/auth/operator"
          className="operator-access__form"
          onSubmit={() => setPending(true)}
        >
          <input type="hidden" name="return_to" value={returnTo} />
          <TextField
            label="Operator token"
            name="token"
            type="password"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="eyJ…"
            hint="The console checks it with the API, then keeps it in an httpOnly cookie until it expires (12 hours at most); page scripts never see it."
          />
          <div className="operator-access__actions">
            <Button type="submit" variant="primary" pending={pending}>
              Use operator token
            </Button>
          </div>
        </form>
        {refused ? (
          <div className="operator-access__forget">
            <p className="muted">Or stop using the token this browser holds:</p>
            <ForgetOperatorForm returnTo={returnTo} />
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** Which operator token the page acts with: its scopes and expiry, and the way to forget it. */
export function OperatorIdentity({ session, returnTo }: { session: OperatorSession; returnTo?: string }) {
  return (
    <section className="operator-identity" aria-label="Operator token">
      <span className="operator-identity__text">
        <span className="operator-identity__title">Operator token</span>
        <span className="operator-identity__meta">
          {session.scopes === null
            ? "scopes unknown"
            : session.scopes.length === 0
              ? "no scopes"
              : session.scopes.map((scope) => (
                  <code key={scope} className="chip">
                    {scope}
                  </code>
                ))}
          {session.expiresAt !== null ? <span>until {formatUtc(session.expiresAt)}</span> : null}
        </span>
      </span>
      <ForgetOperatorForm {...(returnTo ? { returnTo } : {})} />
    </section>
  );
}

/** A refusal of the operator token itself: the page needs another one, not a retry. */
export function refusesOperator(error: ApiError | null): error is ApiError {
  const status = error ? statusOf(error) : undefined;
  return status === 401 || status === 403;
}
