import { ShieldIcon } from "@fleet/ui";

const emptyWords: Record<string, { title: string; text: string }> = {
  pending: {
    title: "Nothing waits for an answer",
    text: "When a fleet asks before it acts (a deploy, a payment, a message to a customer), its request appears here, oldest first, until someone answers or its deadline passes.",
  },
  approved: { title: "No approved gates", text: "Gates approved in this workspace are listed here." },
  denied: { title: "No denied gates", text: "Gates denied in this workspace are listed here." },
  timed_out: {
    title: "No gates timed out",
    text: "A gate nobody answers before its deadline is denied and listed here.",
  },
  auto_killed: {
    title: "No gates closed with their fleet",
    text: "Gates still pending when their fleet was stopped, killed or deleted are closed and listed here.",
  },
};

/** An inbox page without gates: why, in the words of its tab, filters or page. */
export function EmptyInbox({
  status,
  filtered,
  after,
  workspaceName,
}: {
  status: string;
  filtered: boolean;
  after: boolean;
  workspaceName: string;
}) {
  const words = emptyWords[status] ?? emptyWords.pending!;
  return (
    <div className="empty-state">
      <span className="empty-state__icon" aria-hidden="true">
        <ShieldIcon />
      </span>
      <p className="empty-state__title">
        {after
          ? "No more gates"
          : filtered
            ? "No gates match the filters"
            : `${words.title} in ${workspaceName}`}
      </p>
      <p className="empty-state__text">
        {after
          ? "This page is past the last gate."
          : filtered
            ? "Widen the filters or clear them to see every gate."
            : words.text}
      </p>
    </div>
  );
}
