import type { Metadata } from "next";
import { ChatLinkView } from "../../../../features/chat-links/chat-link-view.tsx";

export const metadata: Metadata = { title: "Link a chat account", referrer: "no-referrer" };

type Search = Record<string, string | string[] | undefined>;

/**
 * The one-time link a chat user is sent when their click on a gate's button finds them unlinked. Opening
 * it only shows who would be linked; the link is spent when the signed-in member confirms.
 */
export default async function ChatLinkPage({ searchParams }: { searchParams: Promise<Search> }) {
  const token = (await searchParams).token;
  return <ChatLinkView token={(Array.isArray(token) ? token[0] : token)?.slice(0, 1024) ?? ""} />;
}
