import { createHash } from "node:crypto";
import { byteLength, LIBRARY_CEILINGS, Problem } from "@fleet/contracts";
import { fleetLibraries } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { parseDefinition } from "./definition.ts";
import { fetchDefinitionFromGit } from "./git-source.ts";
import { toLibraryItem } from "./item.ts";

export interface LibraryEntryInput {
  definition?: string;
  git_url?: string;
  ref?: string;
  path?: string;
}

/** Whose library the entry joins: the platform's (every workspace sees it) or one workspace's. */
export type LibraryOwner =
  | { visibility: "platform" }
  | { visibility: "tenant"; tenantId: string; workspaceId: string };

/** The definition's text and where it came from. */
async function readSource(
  ctx: ServiceContext,
  input: LibraryEntryInput,
): Promise<{ text: string; sourceRef: string }> {
  if (input.definition !== undefined) {
    const bytes = byteLength(input.definition);
    if (bytes > LIBRARY_CEILINGS.definitionBytes) {
      throw new Problem("UZ-LIBRARY-011", {
        detail: `The definition is ${bytes} bytes; the ceiling is ${LIBRARY_CEILINGS.definitionBytes}.`,
      });
    }
    const digest = createHash("sha256").update(input.definition, "utf8").digest("hex");
    return { text: input.definition, sourceRef: `upload:sha256:${digest}` };
  }
  return fetchDefinitionFromGit(
    { git_url: input.git_url!, ref: input.ref, path: input.path },
    { devMode: ctx.config.devMode, searchPath: ctx.config.searchPath },
  );
}

/**
 * Creates a library entry from a fleet definition, uploaded as text or cloned from a repository, in the
 * platform library or a workspace's. Answers the entry's metadata. `actor` is null only for the start-up's
 * own seeding (`first-run`), which no person or key performs.
 */
export async function createLibraryEntry(
  ctx: ServiceContext,
  actor: Actor | null,
  owner: LibraryOwner,
  input: LibraryEntryInput,
) {
  if ((input.definition === undefined) === (input.git_url === undefined)) {
    throw new Problem("UZ-REQ-001", { detail: "Send exactly one of definition and git_url." });
  }
  if (input.definition !== undefined && (input.ref !== undefined || input.path !== undefined)) {
    throw new Problem("UZ-REQ-001", { detail: "ref and path go with git_url, not with definition." });
  }
  // A workspace that is not the caller's is refused before anything is fetched on its behalf.
  if (owner.visibility === "tenant") await requireWorkspace(ctx.db, owner.tenantId, owner.workspaceId);
  const { text, sourceRef } = await readSource(ctx, input);
  const definition = parseDefinition(text);
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(fleetLibraries)
      .values({
        id: newId(now),
        visibility: owner.visibility,
        tenantId: owner.visibility === "tenant" ? owner.tenantId : null,
        workspaceId: owner.visibility === "tenant" ? owner.workspaceId : null,
        name: definition.name,
        description: definition.description,
        instructions: definition.instructions,
        model: definition.model,
        triggers: definition.triggers,
        requirements: definition.requirements,
        credentialReasons: definition.credentialReasons,
        sourceRef,
        createdAt: now,
      })
      .returning();
    if (actor !== null) {
      await recordAudit(tx, {
        actor,
        at: now,
        tenantId: owner.visibility === "tenant" ? owner.tenantId : null,
        workspaceId: owner.visibility === "tenant" ? owner.workspaceId : null,
        action: owner.visibility === "tenant" ? "fleet_library.create" : "fleet_library.create_platform",
        target: `fleet_library:${row!.id}`,
        // git_url carries no credentials (refused in git-source.ts), so its source ref may be shown.
        details: { name: definition.name, source_ref: sourceRef },
      });
    }
    return row!;
  });
  return toLibraryItem(row);
}
