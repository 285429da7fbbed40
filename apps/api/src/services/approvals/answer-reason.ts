import type { Tx } from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";
import { fleetMasker } from "../secrets/lease-masker.ts";

/**
 * The reason a person gave for answering or extending a gate, as the gate, its vote and the audit row all
 * keep it: the caller's own text (the contract bounds it to 2,000 characters), null when it is blank, and
 * with the value of any secret the gate's fleet declares (or this instance delivered to the fleet's runs)
 * replaced by `[secret:NAME]`, as the gate's own texts are, so a pasted credential reaches neither the
 * inbox nor an audit export. The fleet's secrets are read only when there is a text to mask.
 */
export async function answerReason(
  tx: Tx,
  vault: Vault,
  gate: { fleetId: string; workspaceId: string },
  reason: string | undefined,
): Promise<string | null> {
  if (reason === undefined || reason.trim() === "") return null;
  const mask = await fleetMasker(tx, vault, gate);
  return mask(reason);
}
