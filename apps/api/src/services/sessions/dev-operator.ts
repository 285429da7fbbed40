import type { OperatorScope } from "@fleet/contracts";
import type { ServiceContext } from "../shared/context.ts";

/**
 * What the owner of a local install may do on the operator plane from the console in dev mode: the
 * operator pages (runners) and the platform's models, library and keys.
 */
export const DEV_OWNER_OPERATOR_SCOPES: OperatorScope[] = [
  "runner:admin",
  "model:admin",
  "platform-library:write",
  "platform-key:write",
];

/**
 * In dev mode (`pnpm start`), a console sign-in by an owner (a membership whose role is owner) also
 * carries an operator token, so the person who runs the install sees its runners without minting a token
 * in a terminal. It expires with the session. Outside dev mode the operator plane keeps its own
 * credential: nothing is issued (docs/decisions/credentials-and-sign-in.md, "Dev mode: the owner's sign-in opens the operator
 * pages").
 */
export async function devOwnerOperatorToken(
  ctx: ServiceContext,
  member: { userId: string; role: string },
  now: number,
): Promise<string | undefined> {
  if (!ctx.config.devMode) return undefined;
  if (member.role !== "owner") return undefined;
  const { token } = await ctx.sessions.sign(
    {
      sub: `dev-owner:${member.userId}`,
      kind: "operator",
      tenantId: null,
      scopes: DEV_OWNER_OPERATOR_SCOPES,
    },
    ctx.config.sessionTtlSeconds,
    now,
  );
  return token;
}
