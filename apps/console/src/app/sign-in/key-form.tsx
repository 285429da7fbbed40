"use client";

import { Button, ProblemAlert, TextField } from "@fleet/ui";
import { useActionState } from "react";
import { type KeySignInState, signInWithKey } from "../../lib/auth-actions.ts";
import "../../components/sign-in-card.css";

const initial: KeySignInState = { problem: null };

/** Posts the key to a server action; the key never lands in page-readable storage. */
export function KeySignInForm() {
  const [state, action, pending] = useActionState(signInWithKey, initial);
  return (
    <form action={action} className="sign-in__form">
      <TextField
        label="API key"
        name="api_key"
        type="password"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="agt_t…"
        hint="The console keeps it in an httpOnly cookie for 12 hours; page scripts never see it."
      />
      {state.problem ? <ProblemAlert problem={state.problem} /> : null}
      <Button type="submit" variant="primary" pending={pending}>
        Sign in with API key
      </Button>
    </form>
  );
}
