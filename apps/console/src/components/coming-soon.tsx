import type { ReactNode } from "react";
import { PageHeader } from "./page-header.tsx";

/** A placeholder for an area whose screens are still to come, saying what will be there. */
export function ComingSoon({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page">
      <PageHeader title={title} />
      <section className="card empty-state" aria-label={`${title} is coming`}>
        <p className="empty-state__eyebrow">Coming soon</p>
        <p className="empty-state__title">{title} are not in the console yet</p>
        <p className="empty-state__text">{children}</p>
      </section>
    </div>
  );
}
