import { EntityName } from "../../components/entity-name.tsx";
import { whoLabel } from "./answer.ts";

/**
 * Who answered or extended a gate: "you", the system's reasons in words ("the timeout"), else the person
 * or key by name with its id to copy.
 */
export function Who({ principal, me }: { principal: string; me: string | undefined }) {
  const words = whoLabel(principal, me);
  return words === principal ? <EntityName principal={principal} me={me} /> : words;
}
