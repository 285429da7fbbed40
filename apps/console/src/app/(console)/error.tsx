"use client";

import { Button } from "@fleet/ui";
import { useEffect } from "react";
import { Link } from "../../components/link.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { LANDING_PATH } from "../../lib/landing.ts";

/** A page that failed while rendering: keep the shell, say what happened, offer a retry. */
export default function ConsoleError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="page">
      <PageHeader title="Something went wrong" />
      <section className="card empty-state" aria-label="Something went wrong" role="alert">
        <p className="empty-state__eyebrow">Error</p>
        <p className="empty-state__title">This page could not be shown</p>
        <p className="empty-state__text">
          Try again; if it keeps failing, <Link href={LANDING_PATH}>go to the home page</Link>.
          {error.digest ? ` Reference: ${error.digest}.` : null}
        </p>
        <Button onClick={() => reset()}>Try again</Button>
      </section>
    </div>
  );
}
