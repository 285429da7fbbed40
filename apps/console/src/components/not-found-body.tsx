import { LANDING_PATH } from "../lib/landing.ts";
import { Link } from "./link.tsx";
import { PageHeader } from "./page-header.tsx";

/**
 * What a signed-in person sees at an address with nothing behind it, inside the shell: an unknown URL
 * (the root not-found) or a record a console page could not find (`(console)/not-found.tsx`).
 */
export function NotFoundBody() {
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
