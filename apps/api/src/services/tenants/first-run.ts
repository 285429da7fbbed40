import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { and, approvalPolicies, asc, eq, fleets, memberships, tenants, users, workspaces } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { createLibraryEntry } from "../fleet-libraries/entry-creation.ts";
import { createFleet } from "../fleets/create-fleet.ts";
import { createSecret } from "../secrets/create-secret.ts";
import { createSignInLink } from "../sessions/sign-in-links.ts";
import type { ServiceContext } from "../shared/context.ts";
import { bootstrapTenant } from "./tenants.ts";

/**
 * What `pnpm start` needs on every start: on an empty database, a first tenant and its owner, and the
 * platform library's demo fleet (so a new user can install one and watch the local runner answer it);
 * then a fresh one-time sign-in link for the oldest owner, and the workspace and demo fleet a program can
 * message at once. In dev mode the first workspace's approval policy lets the person who caused a gate
 * approve it: a developer alone on their machine sends the message and answers its gate
 * (docs/decisions/approvals.md, "Quorum means people"); and the demo fleet is installed there, with the
 * credential it declares, so the summary's `curl` line works on the first start
 * (docs/decisions/development-and-testing.md, "Say what a program needs"). In dev mode the demo agent
 * fleet is put in the platform library and installed there too (installAgentDemo).
 */
export async function firstRun(ctx: ServiceContext, input: { ownerEmail: string; tenantName: string }) {
  const [existing] = await ctx.db.select({ id: tenants.id }).from(tenants).limit(1);
  let created: { tenant_id: string; api_key: string } | null = null;
  if (existing === undefined) {
    const result = await bootstrapTenant(ctx, { tenantName: input.tenantName, email: input.ownerEmail });
    created = { tenant_id: result.tenant_id, api_key: result.api_key };
    if (ctx.config.devMode)
      await ctx.db.insert(approvalPolicies).values({
        workspaceId: result.workspace_id,
        tenantId: result.tenant_id,
        rules: [],
        escalationWebhookUrl: null,
        allowSelfApproval: true,
        updatedAt: ctx.now(),
        updatedBy: `user:${result.user_id}`,
      });
    const entry = await createLibraryEntry(
      ctx,
      null,
      { visibility: "platform" },
      { definition: seed("echo-fleet.md") },
    );
    if (ctx.config.devMode) {
      await installDemo(ctx, result.tenant_id, result.workspace_id, entry.id);
      await installAgentDemo(ctx, result.tenant_id, result.workspace_id);
    }
  }
  const [owner] = await ctx.db
    .select({ email: users.email, tenantId: memberships.tenantId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.role, "owner"))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (owner === undefined)
    return { created, owner: null, url: null, workspace: null, demo_fleet: null, agent_demo_fleet: null };
  const link = await createSignInLink(ctx, { email: owner.email, tenantId: owner.tenantId });
  const [workspace] = await ctx.db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.tenantId, owner.tenantId))
    .orderBy(asc(workspaces.createdAt))
    .limit(1);
  const [demo] =
    workspace === undefined
      ? []
      : await ctx.db
          .select({ id: fleets.id, name: fleets.name })
          .from(fleets)
          .where(and(eq(fleets.workspaceId, workspace.id), eq(fleets.libraryVisibility, "platform")))
          .orderBy(asc(fleets.createdAt))
          .limit(1);
  const [agentDemo] =
    workspace === undefined
      ? []
      : await ctx.db
          .select({ id: fleets.id, name: fleets.name })
          .from(fleets)
          .where(
            and(
              eq(fleets.workspaceId, workspace.id),
              eq(fleets.libraryVisibility, "platform"),
              eq(fleets.name, AGENT_DEMO_NAME),
            ),
          )
          .limit(1);
  return {
    created,
    owner: owner.email,
    url: link.url,
    workspace: workspace ?? null,
    demo_fleet: demo ?? null,
    agent_demo_fleet: agentDemo ?? null,
  };
}

/** The demo agent fleet's name (its seed's `name:`), by which a later start finds it again. */
const AGENT_DEMO_NAME = "Status Board Agent";

/** The start-up's own acts, which no person or key performs, as the audit log records them. */
const startUp = () => ({ principal: "operator:first-run", requestId: newId() });

/** The demo fleet, installed in the first workspace with the credential it declares. */
async function installDemo(ctx: ServiceContext, tenantId: string, workspaceId: string, entryId: string) {
  await createSecret(ctx, startUp(), tenantId, {
    workspace_id: workspaceId,
    name: "ECHO_GREETING",
    data: { value: "Good morning" },
    kind: "generic",
  });
  await createFleet(ctx, startUp(), tenantId, { workspace_id: workspaceId, platform_library_id: entryId });
}

/**
 * Dev mode only: the demo agent fleet, put in the platform library and installed in the first workspace.
 * It reads the local status board `pnpm start` runs on 127.0.0.1 (its `network_hosts`), which means
 * nothing on a deployment: there it is neither offered nor installed. With no provider configured its
 * model is the scripted demo model (FLEET_DEV_SCRIPTED_MODEL_URL); its memory_write opens a gate.
 */
async function installAgentDemo(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  const entry = await createLibraryEntry(
    ctx,
    null,
    { visibility: "platform" },
    { definition: seed("status-board-agent.md") },
  );
  await createFleet(ctx, startUp(), tenantId, { workspace_id: workspaceId, platform_library_id: entry.id });
}

/**
 * A fleet definition shipped with the service (Markdown with YAML front matter). Found from the package
 * root, not this module: `pnpm start:api` runs the API as one bundled file.
 */
function seed(file: string): string {
  const root = dirname(createRequire(import.meta.url).resolve("@fleet/api/package.json"));
  return readFileSync(join(root, "src/services/fleet-libraries/seed", file), "utf8");
}
