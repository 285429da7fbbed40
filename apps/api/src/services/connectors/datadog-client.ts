import type { Config } from "../../env.ts";
import { VendorFailure } from "./slack-client.ts";

/**
 * Asks the API-key connector's vendor (Datadog) whether a key is good: `GET <base>/api/v1/validate` with
 * the key in `DD-API-KEY`, answered 200 `{valid: true}`. The base URL is operator configuration
 * (FLEET_DATADOG_BASE_URL), trusted as the chat vendor's is; redirects are not followed; the call has the
 * connectors' deadline. Resolves when the key is good; otherwise throws a VendorFailure: `unreachable`
 * (no answer in time, no connection, a 5xx or a 429) or `refused` (the vendor turned the key down).
 * Never logs the key.
 */
export async function probeDatadogKey(config: Config, apiKey: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${config.connectors.datadog.baseUrl}/api/v1/validate`, {
      method: "GET",
      headers: {
        accept: "application/json",
        "dd-api-key": apiKey,
        "user-agent": "fleet-control-plane/connectors",
      },
      redirect: "manual",
      signal: AbortSignal.timeout(config.connectors.deadlineMs),
    });
  } catch (error) {
    const named = error as { name?: string; cause?: { code?: string } };
    throw new VendorFailure(
      "unreachable",
      named.name === "TimeoutError" ? "timeout" : (named.cause?.code ?? "error"),
    );
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch (error) {
    if ((error as { name?: string }).name === "TimeoutError")
      throw new VendorFailure("unreachable", "timeout");
  }
  if (response.status === 429 || response.status >= 500)
    throw new VendorFailure("unreachable", `http_${response.status}`);
  const valid =
    response.status === 200 &&
    typeof parsed === "object" &&
    parsed !== null &&
    (parsed as { valid?: unknown }).valid === true;
  if (!valid)
    throw new VendorFailure("refused", response.status === 200 ? "invalid_key" : `http_${response.status}`);
}
