import type { ProblemView } from "@fleet/ui";

/**
 * The tenant provider's refusals in plain words. The API's detail names fields (`base_url`) and codes; a
 * person setting a provider needs to know what to change in the form. The request id stays, for support;
 * the code does not show. Anything not recognised keeps the API's own title and detail.
 */
export function providerProblemInWords(problem: ProblemView): ProblemView {
  const words = explain(problem.error_code, problem.detail);
  if (words === null) return withoutCode(problem);
  return { ...withoutCode(problem), ...words };
}

function withoutCode(problem: ProblemView): ProblemView {
  const { error_code: _code, docs_uri: _docs, ...rest } = problem;
  return rest;
}

const ADDRESS_REFUSED = "The address was refused";

function explain(code: string | undefined, detail: string): Pick<ProblemView, "title" | "detail"> | null {
  switch (code) {
    case "UZ-PROVIDER-005":
      return { title: ADDRESS_REFUSED, detail: addressWords(detail) };
    case "UZ-PROVIDER-002":
      return {
        title: "An API key is needed",
        detail: "This provider is reached with your own key: paste it in API key.",
      };
    case "UZ-PROVIDER-004":
      return {
        title: "That model is not in the catalogue",
        detail: "Choose one of the catalogue's models for this provider; the list shows what can be priced.",
      };
    case "UZ-PROVIDER-009":
      return {
        title: "The platform has no default provider",
        detail:
          "This deployment has no platform provider to fall back on, so choose a provider and key of your own (and keep the current one until you do).",
      };
    case "UZ-PROVIDER-001":
      return { title: "Unknown provider", detail: "Choose a provider from the list." };
    case "UZ-PROVIDER-003":
      return {
        title: "No provider is set",
        detail: "Your fleets already use the platform default; there is nothing to remove.",
      };
    default:
      return null;
  }
}

/** The address guard's reasons (runtime/public-address.ts, services/providers/choice.ts), in words. */
function addressWords(detail: string): string {
  if (/must use https/.test(detail))
    return "The address must start with https:// — plain http is not allowed.";
  if (/must not carry credentials/.test(detail))
    return "Take the user name and password out of the address; the key goes in API key.";
  if (/is not a URL|has no host/.test(detail))
    return "That is not a web address. Use a full address such as https://llm.example.com/v1.";
  if (/must name a public host|not public/.test(detail))
    return "That address points into a private or local network (localhost, 10.x, 192.168.x, link-local and the like). Fleets only call providers on the public internet.";
  if (/does not resolve/.test(detail))
    return "No such host: the name did not resolve. Check its spelling, or that it exists in public DNS.";
  if (/not accepted for|not accepted with provider platform/.test(detail))
    return "This provider is reached at its own address, so leave Base URL empty.";
  if (/needs an https base_url/.test(detail))
    return "An OpenAI-compatible provider needs its address: fill in Base URL (https://…).";
  return "The address cannot be used. It must be an https address of a host on the public internet.";
}
