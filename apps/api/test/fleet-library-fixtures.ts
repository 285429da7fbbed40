import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OutputOf, ProblemBody } from "@fleet/contracts";
import type { createLibrary } from "@fleet/contracts/fleet-libraries/create-library";
import type { listLibraries } from "@fleet/contracts/fleet-libraries/list-libraries";
import type { createWorkspace } from "@fleet/contracts/workspaces/create-workspace";
import { expect } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { call, type Tenant } from "./harness.ts";

/** The library-entry suites' shared pieces: the example definition, and the upload and list calls. */

const fixtures = join(import.meta.dirname, "fixtures", "libraries");
export const TRIAGE = readFileSync(join(fixtures, "triage.md"), "utf8");

/** An entry or a page of them; a problem's fields too, since the same calls are refused. */
export type Item = OutputOf<typeof createLibrary> & Partial<ProblemBody>;
export type Page = OutputOf<typeof listLibraries> & Partial<ProblemBody>;

/** A definition file: the front matter lines, then the instructions. */
export function definition(frontMatter: string, instructions = "Do the work you are asked to do."): string {
  return `---\n${frontMatter}\n---\n${instructions}\n`;
}

export function createEntry(tenant: Tenant, body: unknown, workspaceId = tenant.workspaceId) {
  return call<Item>("POST", `/v1/workspaces/${workspaceId}/fleet-libraries`, { token: tenant.apiKey, body });
}

export function list(tenant: Tenant, query = "", workspaceId = tenant.workspaceId) {
  return call<Page>("GET", `/v1/workspaces/${workspaceId}/fleet-libraries${query}`, { token: tenant.apiKey });
}

export async function newWorkspace(tenant: Tenant): Promise<string> {
  const created = await call<OutputOf<typeof createWorkspace>>("POST", "/v1/workspaces", {
    token: tenant.apiKey,
    body: { name: `second ${newId()}` },
  });
  expect(created.status).toBe(201);
  return created.body.workspace_id;
}

/** Every item of a listing, following next_cursor to the end. */
export async function everything(
  tenant: Tenant,
  limit: number,
  workspaceId = tenant.workspaceId,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor === null ? "" : `&starting_after=${cursor}`;
    const page = await list(tenant, `?limit=${limit}${after}`, workspaceId);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.body.items);
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return items;
}

/** Each definition is refused 400 UZ-LIBRARY-010 with a detail matching its pattern (naming the entry). */
export async function expectRefused(tenant: Tenant, cases: [string, RegExp][]): Promise<void> {
  for (const [text, detail] of cases) {
    const response = await createEntry(tenant, { definition: text });
    expect(response.status, text).toBe(400);
    expect(response.body.error_code, text).toBe("UZ-LIBRARY-010");
    expect(response.body.detail, text).toMatch(detail);
  }
}
