import { z } from "zod";
import { epochMs } from "../common.ts";

/** A chat user linked to a member: their clicks on a gate's buttons act as that member. */
export const chatLink = z
  .object({
    id: z.string(),
    /** The member the chat user acts as. */
    user_id: z.string(),
    provider: z.string(),
    team_id: z.string(),
    /** The team's name while a workspace of the tenant holds its connection. */
    team_name: z.string().nullable(),
    chat_user_id: z.string(),
    created_at: epochMs,
  })
  .meta({ id: "ChatLink" });
export type ChatLink = z.infer<typeof chatLink>;

export const chatLinkList = z.object({ items: z.array(chatLink) }).meta({ id: "ChatLinks" });
