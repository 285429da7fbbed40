import type { Lease } from "./lease.ts";

/**
 * The gate_kind of the gate an agent's call of `tool` opens: `tool.<name>`, which an approval policy's rule
 * can name (`match.gate_kinds`); `approval` for a name no gate kind can spell. The runner opens its gates
 * with it and the service reads the policy's rules with it, so both mean the same gate.
 */
export function toolGateKind(tool: string): string {
  const kind = `tool.${tool}`;
  return /^[a-z][a-z0-9_.-]{0,63}$/.test(kind) ? kind : "approval";
}

/** The blast radius a call of `tool` carries: the definition's for it, else a sentence that says so. */
export function toolBlastRadius(fleet: Pick<Lease["fleet"], "tool_blast_radius">, tool: string): string {
  return fleet.tool_blast_radius?.[tool] ?? `Whatever ${tool} does with these arguments.`;
}
