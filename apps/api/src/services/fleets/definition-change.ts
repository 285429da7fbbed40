import { Problem } from "@fleet/contracts";
import type { FleetDefinition } from "@fleet/db";
import { parseDefinition, parseTriggerDocument } from "../fleet-libraries/definition.ts";

export interface DefinitionChange {
  /** A whole definition in the library format: instructions, requirements and triggers. */
  source_markdown?: string;
  /** A trigger document: front matter holding `triggers` alone. */
  trigger_markdown?: string;
}

/**
 * The parts of a fleet's definition a PATCH replaces, read exactly as an import reads a definition (same
 * errors, same ceilings); null when it sends neither document. The definition's `name` does not rename
 * the fleet: `name` in the PATCH does that.
 */
export function readDefinitionChange(change: DefinitionChange): Partial<FleetDefinition> | null {
  const { source_markdown: source, trigger_markdown: triggers } = change;
  if (source === undefined && triggers === undefined) return null;
  const replaced: Partial<FleetDefinition> = {};
  if (source !== undefined) {
    const definition = parseDefinition(source);
    if (triggers !== undefined && definition.triggers.length > 0) {
      throw new Problem("UZ-LIBRARY-010", {
        detail: "source_markdown lists triggers and trigger_markdown is sent too: keep the triggers in one.",
      });
    }
    replaced.instructions = definition.instructions;
    replaced.model = definition.model;
    replaced.requirements = definition.requirements;
    replaced.triggers = definition.triggers;
  }
  if (triggers !== undefined) replaced.triggers = parseTriggerDocument(triggers);
  return replaced;
}
