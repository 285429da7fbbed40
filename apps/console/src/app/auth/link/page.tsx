import { Button } from "@fleet/ui";
import type { Metadata } from "next";
import { SignInCard } from "../../../components/sign-in-card.tsx";
import "../../../components/sign-in-card.css";

export const metadata: Metadata = { title: "Sign in", referrer: "no-referrer" };

/**
 * The target of `fleetctl login-link`. Opening the link only shows this page; the link is spent when the
 * person presses Continue (a POST from this origin), so a link scanner or another site cannot use it up.
 */
export default async function SignInLinkPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const { token = "" } = await searchParams;
  return (
    <SignInCard title="Continue to the console">
      <p className="sign-in__text">
        This one-time link signs you in on this browser. It works once, within 10 minutes of being made.
      </p>
      <form method="post" action="/auth/link/confirm" className="sign-in__form">
        <input type="hidden" name="token" value={token} />
        <Button type="submit" variant="primary">
          Continue
        </Button>
      </form>
    </SignInCard>
  );
}
