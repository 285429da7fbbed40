import Link from "next/link";
import { PageHeader } from "../../components/page-header.tsx";
import { LANDING_PATH } from "../../lib/landing.ts";

export const metadata = { title: "Page not found" };

/** A page, fleet or record that does not exist (or is another tenant's): say so inside the shell. */
export default function ConsoleNotFound() {
  return (
    <div className="page">
      <PageHeader title="Page not found" />
      <section className="card empty-state" aria-label="Page not found">
        <p className="empty-state__eyebrow">404</p>
        <p className="empty-state__title">There is nothing at this address</p>
        <p className="empty-state__text">
          The link may be old, or the record was deleted or belongs to another workspace.{" "}
          <Link href={LANDING_PATH}>Go to the home page</Link> or pick a page in the navigation.
        </p>
      </section>
    </div>
  );
}
