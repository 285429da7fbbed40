import { ProblemAlert } from "@fleet/ui";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { SignInCard } from "../../components/sign-in-card.tsx";
import { decodeProblem, SIGN_IN_PROBLEM_COOKIE } from "../../lib/flash.ts";
import { KeySignInForm } from "./key-form.tsx";
import "../../components/sign-in-card.css";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  const jar = await cookies();
  const linkProblem = decodeProblem(jar.get(SIGN_IN_PROBLEM_COOKIE)?.value);
  return (
    <SignInCard title="Sign in to the console">
      {linkProblem ? <ProblemAlert problem={linkProblem} /> : null}
      <section className="sign-in__section" aria-labelledby="link-heading">
        <h2 id="link-heading" className="sign-in__heading">
          With a sign-in link
        </h2>
        <p className="sign-in__text">Ask an operator for a link, or print one on the server:</p>
        <pre className="sign-in__command">
          <code>pnpm fleetctl login-link --email you@example.com</code>
        </pre>
        <p className="sign-in__text muted">
          Open it in this browser within 10 minutes. Each link works once.
        </p>
      </section>
      <div className="sign-in__divider" aria-hidden="true">
        <span>or</span>
      </div>
      <section className="sign-in__section" aria-labelledby="key-heading">
        <h2 id="key-heading" className="sign-in__heading">
          With a tenant API key
        </h2>
        <KeySignInForm />
      </section>
    </SignInCard>
  );
}
