import type { Config } from "../../env.ts";
import { callVendor, VendorFailure } from "./vendor-http.ts";

/**
 * Asks the API-key connector's vendor (Datadog) whether a key is good: `GET <base>/api/v1/validate` with
 * the key in `DD-API-KEY`, answered 200 `{valid: true}`. The base URL is operator configuration
 * (FLEET_DATADOG_BASE_URL), trusted as the chat vendor's is; redirects are not followed; the call has the
 * connectors' deadline. Resolves when the key is good; otherwise throws a VendorFailure: `unreachable`
 * (no answer in time, no connection, a 5xx or a 429) or `refused` (the vendor turned the key down).
 * Never logs the key.
 */
export async function probeDatadogKey(config: Config, apiKey: string): Promise<void> {
  const { status, body } = await callVendor(config, `${config.connectors.datadog.baseUrl}/api/v1/validate`, {
    method: "GET",
    headers: {
      accept: "application/json",
      "dd-api-key": apiKey,
      "user-agent": "fleet-control-plane/connectors",
    },
  });
  const valid =
    status === 200 &&
    typeof body === "object" &&
    body !== null &&
    (body as { valid?: unknown }).valid === true;
  if (!valid) throw new VendorFailure("refused", status === 200 ? "invalid_key" : `http_${status}`);
}
