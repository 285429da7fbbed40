import type { BadgeTone } from "@fleet/ui";
import type { RouterOutputs } from "../../lib/trpc.ts";

export type SecretItem = RouterOutputs["secrets"]["list"]["secrets"][number];
export type SecretKind = SecretItem["kind"];
export type Workspace = RouterOutputs["workspaces"]["list"]["items"][number];

export const kindLabels: Record<SecretKind, string> = {
  generic: "Generic",
  provider_api_key: "Provider API key",
};

export const kindTones: Record<SecretKind, BadgeTone> = {
  generic: "neutral",
  provider_api_key: "info",
};

export const kindChoices = [
  {
    value: "generic",
    label: kindLabels.generic,
    description: "Any credential a fleet reads by name: a token, a password, a webhook URL.",
  },
  {
    value: "provider_api_key",
    label: kindLabels.provider_api_key,
    description: "A model provider’s key, which fleets use to call the model.",
  },
] as const satisfies readonly { value: SecretKind; label: string; description: string }[];
