import { z } from "zod";

/** One row of the error registry: the HTTP status, a short title, and optionally a sentence for end users. */
export interface ErrorDefinition {
  status: number;
  title: string;
  /** What the code means, shown on the served error page. */
  meaning: string;
  userMessage?: string;
}

function def(status: number, title: string, meaning: string, userMessage?: string): ErrorDefinition {
  return userMessage === undefined ? { status, title, meaning } : { status, title, meaning, userMessage };
}

/**
 * Every error code the service can answer with. Codes are stable across releases; the served page at
 * `{DOCS_URL}` lists them all, and each problem's `docs_uri` points at `{DOCS_URL}#<code>`.
 */
export const errorRegistry = {
  // Requests
  /** A body field, path parameter or query parameter failed validation, or a retired parameter was sent. */
  "UZ-REQ-001": def(
    400,
    "Invalid request",
    "A body field, path parameter or query parameter is missing, malformed, unknown or retired (page, page_size, cursor, sort where not offered); also unknown event tags and an empty key on rotation.",
  ),
  /** The body is not valid JSON. */
  "UZ-REQ-002": def(400, "Malformed JSON", "The request body could not be parsed as JSON."),
  /** The request carried a body in a media type the route does not read. */
  "UZ-REQ-003": def(415, "Unsupported media type", "The route reads application/json bodies only."),
  /** No route matches the path. */
  "UZ-REQ-004": def(404, "Not found", "No route matches this path."),
  /** The path exists but not with this method. */
  "UZ-REQ-005": def(
    405,
    "Method not allowed",
    "The path exists, but not with this method; the Allow header lists the methods it takes.",
  ),
  /** The body is larger than the route accepts. */
  "UZ-REQ-006": def(413, "Payload too large", "The request body is over the route's ceiling."),
  /** The request line and headers are over 16 KiB. */
  "UZ-REQ-007": def(431, "Request header fields too large", "The request line plus headers exceed 16 KiB."),
  /** An Idempotency-Key came back with a different request than the one it first carried. */
  "UZ-REQ-008": def(
    422,
    "Idempotency key reused",
    "This Idempotency-Key was used within the last 24 h for a different request; send a new key for a new request.",
  ),
  // Instance
  /** A rate limit is spent (the workspace's or the credential's), or the instance is at its ceiling of requests in flight; retry after the Retry-After delay. */
  "UZ-API-001": def(
    429,
    "Rate limited",
    "The workspace's or the credential's request quota is spent for now, or the instance is answering as many requests as it takes; wait the Retry-After delay (whole seconds). RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset describe the quota.",
    "Too many requests. Try again shortly.",
  ),
  /** The stream cannot take another subscriber on this instance. */
  "UZ-API-002": def(
    503,
    "Subscriber limit reached",
    "No further stream subscriber can be accepted on this instance; retry after the Retry-After delay.",
  ),
  /** An unexpected failure; the request id finds it in the logs. */
  "UZ-INTERNAL-001": def(
    500,
    "Internal error",
    "The service failed to answer. Nothing internal is disclosed; the request id locates the failure in the logs.",
    "Something went wrong on our side. Try again, and quote the request id if it persists.",
  ),
  /** A dependency (database, scheduler) is unreachable. */
  "UZ-INTERNAL-002": def(
    503,
    "Dependency unavailable",
    "A dependency the request needs (database or scheduler) is unreachable, or no database connection came free in time; when the answer carries Retry-After, retry after that delay.",
  ),
  // Authentication and authorization
  /** No credential was sent. */
  "UZ-AUTH-001": def(
    401,
    "Authentication required",
    "The route needs a bearer credential (or the console's session cookie) and none was sent.",
  ),
  /** The credential is unknown, malformed, expired or its signature does not verify. */
  "UZ-AUTH-002": def(
    401,
    "Invalid credential",
    "The credential is unknown, malformed, expired, or no longer a member of its tenant.",
  ),
  /** The credential is valid but of a class this route does not accept. */
  "UZ-AUTH-003": def(
    401,
    "Credential not accepted here",
    "The credential is of a class this route does not accept (for example a runner token on a tenant route).",
  ),
  /** The one-time sign-in link is unknown, used or expired. */
  "UZ-AUTH-010": def(
    401,
    "Sign-in link not valid",
    "The sign-in link is unknown, already used, or older than 10 minutes.",
    "This sign-in link has expired or was already used. Ask for a new one.",
  ),
  /** The cookie-authenticated request lacks the console's CSRF header. */
  "UZ-AUTH-011": def(
    403,
    "Cross-site request refused",
    "A request authenticated by the console cookie must carry the x-fleet-csrf header.",
  ),
  /** Device sign-in: the person has not answered yet (RFC 8628 `authorization_pending`). */
  "UZ-AUTH-012": def(
    409,
    "Sign-in pending",
    "The command-line sign-in waits for the person to approve it on the console's /device page; poll again after the Retry-After delay (RFC 8628 authorization_pending; current_state: pending).",
  ),
  /** Device sign-in: polled before the interval passed (RFC 8628 `slow_down`). */
  "UZ-AUTH-013": def(
    429,
    "Polling too fast",
    "The device code was polled before its interval passed; the interval grew by 5 seconds, and Retry-After gives the new one (RFC 8628 slow_down).",
  ),
  /** Device sign-in: the device code is unknown, already spent, or expired (RFC 8628 `expired_token`). */
  "UZ-AUTH-014": def(
    401,
    "Device code not valid",
    "The device code is unknown, was already exchanged for a credential, or is older than 10 minutes; start a new sign-in (RFC 8628 expired_token).",
    "This sign-in has expired. Run the sign-in again.",
  ),
  /** Device sign-in: the person denied it (RFC 8628 `access_denied`). */
  "UZ-AUTH-015": def(
    403,
    "Sign-in denied",
    "The person denied the command-line sign-in, or is no longer a member (RFC 8628 access_denied).",
  ),
  /** No command-line sign-in waits with this user code. */
  "UZ-AUTH-016": def(
    404,
    "Sign-in code not found",
    "No command-line sign-in waits with this code: it was mistyped, has expired, or was already answered.",
    "No sign-in waits with this code. Check it against the one your terminal shows.",
  ),
  /** The command-line sign-in was already approved or denied. */
  "UZ-AUTH-017": def(
    409,
    "Sign-in already answered",
    "The command-line sign-in was already approved or denied; current_state names the answer.",
  ),
  /** Too many wrong user codes entered: entering codes is refused for a while. */
  "UZ-AUTH-018": def(
    429,
    "Too many wrong codes",
    "Too many wrong sign-in codes were entered by this person in 15 minutes; wait the Retry-After delay.",
    "Too many wrong codes. Wait a few minutes, then try again.",
  ),
  /** No command-line credential with this id belongs to the caller. */
  "UZ-AUTH-019": def(
    404,
    "CLI credential not found",
    "The calling person holds no command-line credential with this id.",
  ),
  /** The token lacks the scope named in detail. */
  "UZ-AUTH-022": def(403, "Missing scope", "The credential lacks the scope named in detail."),
  // Tenants, members, workspaces
  /** Removing the account's last owner. */
  "UZ-INV-004": def(409, "Last owner", "The account's last owner cannot be removed."),
  /** A workspace with this name already exists in the tenant. */
  "UZ-WORKSPACE-001": def(
    409,
    "Workspace name taken",
    "The tenant already has a workspace with this name (current_state: name_exists).",
  ),
  /** No such workspace, or one of another tenant. */
  "UZ-WORKSPACE-002": def(404, "Workspace not found", "No workspace with this id is visible to the caller."),
  /** No fleet, event or gate with this id that the caller may read (unknown, another tenant's, or unreadable). */
  "UZ-ID-001": def(
    404,
    "Id not found",
    "No fleet, event or approval gate with this id is visible to the caller.",
  ),
  /** No such member, or a person of another tenant. */
  "UZ-MEMBER-001": def(404, "Member not found", "No member with this user id is visible to the caller."),
  /** Only an owner may invite, change or remove an owner, or give or take the owner role. */
  "UZ-MEMBER-002": def(
    403,
    "Owner only",
    "Only an owner can invite, change or remove an owner, or give or take the owner role.",
  ),
  /** The person is already a member of the tenant. */
  "UZ-MEMBER-003": def(
    409,
    "Already a member",
    "The person is already a member of the tenant; change their scopes instead (current_state: member).",
  ),
  // API keys
  /** No such key, or one of another tenant. */
  "UZ-APIKEY-001": def(404, "API key not found", "No tenant API key with this id is visible to the caller."),
  /** The key was revoked; it authenticates nothing. */
  "UZ-APIKEY-004": def(
    401,
    "API key revoked",
    "The tenant API key was revoked and is refused at once on every instance.",
  ),
  /** The key passed its expires_at; it authenticates nothing. */
  "UZ-APIKEY-007": def(
    401,
    "API key expired",
    "The tenant API key passed the expiry chosen when it was minted; mint a new one.",
  ),
  /** Only a revoked key can be deleted. */
  "UZ-APIKEY-005": def(
    409,
    "API key still active",
    "Only a revoked key can be deleted; revoke it first (current_state: active).",
  ),
  /** The key is already revoked. */
  "UZ-APIKEY-006": def(
    409,
    "API key already revoked",
    "The key is already revoked (current_state: revoked); revocation cannot be undone.",
  ),
  /** The tenant holds FLEET_MAX_API_KEYS live keys (API and fleet keys); no more are minted. */
  "UZ-APIKEY-008": def(
    409,
    "Too many keys",
    "The tenant holds as many live keys as this instance allows; revoke one before minting another.",
  ),
  /** A key minting or rotating a key asked for a later expiry or a larger quota than its own. */
  "UZ-APIKEY-009": def(
    403,
    "Beyond the minting key",
    "A key cannot mint a key that outlives it or has a larger request quota than its own.",
  ),
  // Fleet keys
  /** No such fleet key in this workspace, or one of another tenant. */
  "UZ-FLEETKEY-001": def(
    404,
    "Fleet key not found",
    "No fleet key with this id is visible in this workspace.",
  ),
  // Schedules
  /** The cron expression or timezone is invalid. */
  "UZ-SCHED-001": def(
    400,
    "Invalid schedule",
    "The cron expression is not five fields, or the timezone is not an IANA zone; detail names the field.",
  ),
  /** No such schedule. */
  "UZ-SCHED-002": def(404, "Schedule not found", "No schedule with this id is visible to the caller."),
  /** The fleet holds 32 schedules in all. */
  "UZ-SCHED-003": def(
    409,
    "Schedule limit reached",
    "The fleet already holds 32 schedules in all (current_state: limit_reached).",
  ),
  /** Two edits of one schedule raced. */
  "UZ-SCHED-006": def(
    409,
    "Schedule is syncing",
    "Another change of this schedule is being pushed to the scheduler (current_state: syncing).",
  ),
  /** The fleet already holds 16 schedules it created. */
  "UZ-SCHED-009": def(
    409,
    "Fleet schedule cap",
    "The fleet already holds 16 schedules it created (current_state: at_capacity).",
  ),
  /** A fleet may change only schedules it created. */
  "UZ-SCHED-010": def(
    403,
    "Schedule not the fleet's",
    "A fleet can change only schedules whose source is fleet.",
  ),
  /** The If-Match tag is stale. */
  "UZ-SCHED-012": def(
    412,
    "Schedule changed",
    "The If-Match tag is not the schedule's current etag; refetch and retry with the etag in the body.",
  ),
  // Billing and budgets
  /** A run reached its budget: the fleet's per-run cap, or what is left of the fleet's budget this period. */
  "UZ-BUDGET-001": def(
    409,
    "Run over budget",
    "The run has spent its budget (the fleet's per-run cap, or what is left of the fleet's budget this period); the runner must stop and report. current_state is over_budget.",
    "This run was stopped because it reached its budget.",
  ),
  /** The operator credited a tenant that does not exist. */
  "UZ-BILLING-001": def(404, "Tenant not found", "No tenant with this id exists on the deployment."),
  /** A credit reused a reference with a different amount. */
  "UZ-BILLING-002": def(
    409,
    "Credit reference reused",
    "A credit with this reference was already applied with another amount; a retry must send the same amount, a new credit a new reference.",
  ),
  // Fleets and their events
  /** No such fleet in the workspace. */
  "UZ-FLEET-001": def(404, "Fleet not found", "No fleet with this id is visible in this workspace."),
  /** The workspace already holds a fleet with this name. */
  "UZ-FLEET-002": def(
    409,
    "Fleet name exists",
    "The workspace already holds a fleet with this name (current_state: name_exists); pass another name.",
  ),
  /** The fleet's status forbids the request. */
  "UZ-FLEET-003": def(
    409,
    "Fleet state forbids this",
    "The fleet's current status does not allow this transition or does not accept work; current_state names it.",
  ),
  /** If-Match named an older version of the fleet. */
  "UZ-FLEET-004": def(
    412,
    "Fleet changed",
    "The If-Match tag is not the fleet's current etag; refetch and retry with the etag in the body.",
  ),
  /** No such fleet event. */
  "UZ-EVENT-001": def(404, "Event not found", "No event with this id is visible for this fleet."),
  /** A run again of an event whose run has not finished (or was refused before it ran). */
  "UZ-EVENT-002": def(
    409,
    "Event not finished",
    "Only a finished event (processed or fleet_error) can be run again; current_state names the event's status.",
  ),
  // Runners and leases
  /** A superseded lease holder was refused. */
  "UZ-RUN-005": def(
    409,
    "Stale fencing token",
    "The lease holder has been superseded: its fencing token is no longer the fleet's current one.",
  ),
  /** No such lease held by the calling runner. */
  "UZ-RUN-001": def(404, "Lease not found", "The calling runner holds no lease with this id."),
  /** No such runner. */
  "UZ-RUN-014": def(404, "Runner not found", "No runner with this id is visible to the caller."),
  /** Only a revoked runner can be deleted. */
  "UZ-RUN-015": def(
    409,
    "Runner not revoked",
    "Revoke the runner before deleting it; current_state names its status.",
  ),
  /** The sandbox tier cannot be assigned on this deployment. */
  "UZ-RUN-016": def(
    400,
    "Sandbox tier not assignable",
    "dev_none is assignable only when the service runs in dev mode.",
  ),
  /** A revoked runner cannot change. */
  "UZ-RUN-017": def(
    409,
    "Runner revoked",
    "The runner is revoked; revocation is final (current_state: revoked).",
  ),
  /** The runner is degraded and refuses leases. */
  "UZ-EXEC-017": def(
    409,
    "Runner degraded",
    "The runner's reported capabilities do not satisfy its assigned policy; no work is leased to it. detail names the missing mechanism.",
  ),
  // Secrets
  "UZ-VAULT-001": def(
    400,
    "Invalid secret",
    "The secret name or data is invalid: data must be a non-empty object of at most 4 KiB stringified.",
  ),
  "UZ-VAULT-002": def(
    503,
    "Vault unavailable",
    "The secret could not be sealed or opened (the master key is missing or wrong).",
  ),
  "UZ-VAULT-003": def(404, "Secret not found", "The workspace holds no secret with this name."),
  "UZ-VAULT-005": def(409, "Secret exists", "The workspace already holds a secret with this name."),
  // Providers and the model catalogue
  "UZ-PROVIDER-001": def(400, "Invalid provider", "The provider is not one the deployment knows."),
  "UZ-PROVIDER-002": def(400, "Provider key required", "A named provider needs an api_key."),
  "UZ-PROVIDER-003": def(404, "No provider configured", "The tenant has no provider configured."),
  "UZ-PROVIDER-004": def(400, "Model not priced", "The default's model is not a priced catalogue row."),
  "UZ-PROVIDER-005": def(
    400,
    "Invalid base_url",
    "base_url is not https, does not resolve only to public addresses, or is set on a named provider.",
  ),
  "UZ-PROVIDER-006": def(404, "Model not found", "No catalogue row has that uid."),
  "UZ-PROVIDER-007": def(409, "Model in use", "The model is the active default."),
  "UZ-PROVIDER-008": def(409, "Duplicate model", "A catalogue row with this (provider, model_id) exists."),
  "UZ-PROVIDER-009": def(
    409,
    "No platform default",
    "Switching to platform defaults when none is configured.",
  ),
  // The model gateway (docs/decisions/model-gateway.md)
  "UZ-MODEL-001": def(
    409,
    "No model provider",
    "Neither the tenant nor the platform has a model provider configured; set one with PUT /v1/tenants/me/provider.",
  ),
  "UZ-MODEL-002": def(
    502,
    "Model provider unreachable",
    "The model provider refused the connection, answered 5xx or answered something that is not its wire.",
  ),
  "UZ-MODEL-003": def(
    504,
    "Model provider timeout",
    "The model provider did not answer within the deadline.",
  ),
  "UZ-MODEL-004": def(
    429,
    "Model provider rate limit",
    "The model provider is rate limiting this key; retry after Retry-After seconds.",
  ),
  "UZ-MODEL-005": def(
    409,
    "Model provider key refused",
    "The model provider refused the configured key (401/403): the operator must fix the provider settings (PUT /v1/tenants/me/provider).",
  ),
  "UZ-MODEL-006": def(
    400,
    "Model request refused",
    "The model provider refused the request as invalid; detail carries the provider's own message.",
  ),
  "UZ-MODEL-007": def(
    429,
    "Too many model calls",
    "The lease already has the most model calls open at once (8); retry when one ends.",
  ),
  "UZ-MODEL-008": def(
    409,
    "Provider not served",
    "The configured provider is not one the gateway serves as configured (an openai_compatible provider without a base_url).",
  ),
  "UZ-MODEL-009": def(
    400,
    "Request not translatable",
    "The request uses a part the gateway does not translate to the provider's wire (anthropic: image or audio content, n > 1, a malformed tool call); nothing was forwarded.",
  ),
  // Libraries and bundles
  /** No platform entry with the id an install names; on the one-entry read, no entry the workspace sees. */
  "UZ-BUNDLE-001": def(
    404,
    "Library entry not found",
    "No platform library entry with this id; on the one-entry read, no entry with this id that the workspace may see.",
  ),
  "UZ-BUNDLE-002": def(
    404,
    "Tenant library entry not found",
    "No tenant library entry with this id is visible to the caller.",
  ),
  "UZ-BUNDLE-003": def(
    424,
    "Missing credential",
    "The install needs credentials the workspace lacks; the body lists them in missing_credentials and, the same list, missing_secrets.",
  ),
  "UZ-LIBRARY-001": def(400, "Unknown cursor", "The cursor was never issued by this endpoint."),
  "UZ-LIBRARY-002": def(400, "Cursor page size mismatch", "The cursor was issued for a different page size."),
  "UZ-LIBRARY-003": def(400, "Invalid limit", "limit must be from 1 to 100."),
  "UZ-LIBRARY-004": def(500, "Catalogue unreadable", "The catalogue revision could not be read."),
  "UZ-LIBRARY-005": def(500, "Response too large", "A compliant response would exceed its body ceiling."),
  "UZ-LIBRARY-006": def(
    503,
    "Library store unavailable",
    "A pool or query failure while reading the library.",
  ),
  "UZ-LIBRARY-008": def(409, "Secret reference race", "A secret-reference write lost a race to a delete."),
  /** The fleet definition is malformed; detail names the field. */
  "UZ-LIBRARY-010": def(
    400,
    "Invalid fleet definition",
    "The fleet definition could not be read: no front matter, YAML that does not parse, or a field that fails its rule (a cron expression that is not five fields, a timezone that is not an IANA zone, a credential reason over 500 bytes, a path naming no file); detail names the field.",
  ),
  /** The import is past a ceiling of the Limits table. */
  "UZ-LIBRARY-011": def(
    413,
    "Library import over a ceiling",
    "The definition passes a ceiling: more than 32 required credentials, 64 tools, 64 network hosts, 32 runner labels or 16 triggers; a name over 200 bytes or a host over 253; a definition over 256 KiB; or a repository checkout over its byte ceiling.",
  ),
  /** The service does not fetch from this git_url, ref or path. */
  "UZ-LIBRARY-012": def(
    400,
    "Repository source refused",
    "git_url must be https:// to a public host (file:// only in dev mode), without credentials, query or fragment; ref must be a branch or tag name and path a relative path inside the repository.",
  ),
  /** Cloning the repository failed or ran past its time limit. */
  "UZ-LIBRARY-013": def(
    502,
    "Repository fetch failed",
    "The repository could not be cloned: unreachable, not found, the ref is missing, or the clone ran past its time limit; detail says which.",
  ),
  // Approvals
  /** No approval gate with this id in the workspace (or under the runner's lease's fleet). */
  "UZ-APPROVAL-001": def(
    404,
    "Approval gate not found",
    "No approval gate with this id is visible to the caller.",
  ),
  /** A gate's fields break a rule no schema can state (reserved for the approval policy's rules). */
  "UZ-APPROVAL-002": def(400, "Invalid approval", "The gate's timeout or fields are invalid."),
  /** An answer to a gate that reached its deadline first; the body carries the standing `timed_out`. */
  "UZ-APPROVAL-003": def(409, "Gate expired", "The gate timed out before the answer arrived."),
  /** The caller may not answer this gate (the approval policy's approvers). */
  "UZ-APPROVAL-004": def(403, "Not an approver", "The caller may not answer this gate."),
  /** An answer to a gate closed without a person: its fleet was stopped, killed or deleted (`auto_killed`). */
  "UZ-APPROVAL-005": def(409, "Gate not open", "The gate cannot take an answer in its current state."),
  /** A second answer to a gate a person already answered; the first answer wins and is in the body. */
  "UZ-APPROVAL-006": def(
    409,
    "Gate already answered",
    "The gate already holds an answer; the first answer wins. The body names the gate, action, outcome, resolved_by and resolved_at.",
  ),
  /** A second extension of a gate's deadline: a gate is extended once. */
  "UZ-APPROVAL-007": def(
    409,
    "Gate already extended",
    "The gate's deadline was already extended once; it cannot be extended again.",
  ),
  /** A person approving a gate they already approved: an approval counts once per person. */
  "UZ-APPROVAL-008": def(
    409,
    "Already approved",
    "You already approved this gate; an approval counts once per person. The body holds the approvals so far.",
  ),
  /** A path that carries no person (the grant-approval webhook) may not decide a gate whose rule takes people. */
  "UZ-APPROVAL-009": def(
    409,
    "Rule takes people",
    "The gate's rule names its approvers or takes more than one approval: people answer it in the inbox. The detail names the rule.",
  ),
  /** The person who caused the gate (sent the message, requested the grant) approving it, which the policy forbids. */
  "UZ-APPROVAL-010": def(
    403,
    "Own gate",
    "You caused this gate (you sent the message or requested the grant); the approval policy lets someone else approve it (allow_self_approval is false).",
  ),
  /** An approval that could not count toward the gate's quorum; the detail says why. */
  "UZ-APPROVAL-011": def(
    403,
    "Approval would not count",
    "Your approval cannot count toward this gate: you joined the tenant after it opened, or someone of your invitation family (you, who invited you, or whom they invited) already approved it.",
  ),
  // Webhooks (signed inbound calls) and integration grants
  /** The signature headers are missing or not of the form the service signs. */
  "UZ-WEBHOOK-001": def(
    401,
    "Signature missing",
    "x-signature-timestamp (Unix seconds) and x-signature (v0=<64 hex>) must both be sent, over the raw body as received.",
  ),
  /** The signature does not verify with the workspace's webhook secret in force. */
  "UZ-WEBHOOK-002": def(
    401,
    "Invalid signature",
    'The signature does not verify: HMAC-SHA256 of "v0:" + timestamp + ":" + the raw body, keyed with the workspace\'s current webhook secret (also the answer for a fleet that does not exist).',
  ),
  /** The timestamp is more than 300 seconds from the service's clock, either way. */
  "UZ-WEBHOOK-003": def(
    401,
    "Stale signature",
    "x-signature-timestamp is more than 300 seconds away from the service's clock; sign the request again.",
  ),
  /** The nonce was already used with a verified call of this workspace. */
  "UZ-WEBHOOK-004": def(
    409,
    "Nonce replayed",
    "This nonce was already used; every webhook call carries a new one.",
  ),
  /** The fleet's workspace has no webhook secret, so no call can verify. */
  "UZ-WEBHOOK-006": def(
    401,
    "Webhook secret not configured",
    "The fleet's workspace has no webhook secret (the incoming one, for grant decisions); mint one with POST /v1/workspaces/{workspace_id}/webhook-secret.",
  ),
  /** No webhook endpoint with this id in the workspace (or visible to the caller). */
  "UZ-WEBHOOK-007": def(
    404,
    "Webhook endpoint not found",
    "No webhook endpoint with this id is visible in this workspace.",
  ),
  /** An endpoint's URL is not one the service will deliver to. */
  "UZ-WEBHOOK-008": def(
    400,
    "Webhook URL refused",
    "An endpoint's url must be https, carry no credentials, and name a host that is, or resolves only to, public addresses (checked when saved and again at every delivery).",
  ),
  /** The workspace already has as many webhook endpoints as it may. */
  "UZ-WEBHOOK-009": def(
    409,
    "Endpoint limit reached",
    "The workspace already has 50 webhook endpoints (current_state: at_capacity); delete one first.",
  ),
  /** No delivery of this event to this endpoint (or visible to the caller). */
  "UZ-WEBHOOK-010": def(
    404,
    "Webhook delivery not found",
    "This endpoint has no delivery of this event visible here; a delivery is named by its event's id (the webhook-id).",
  ),
  /** A replay reaching further back than events are kept for replay. */
  "UZ-WEBHOOK-011": def(
    400,
    "Replay too far back",
    "A replay's since may reach back 7 days at most; the detail names the earliest since accepted now.",
  ),
  /** The change is the approval policy's to make: the workspace's notice endpoint. */
  "UZ-WEBHOOK-012": def(
    409,
    "Endpoint managed by the approval policy",
    "This is the workspace's notice endpoint, the approval policy's escalation URL: change or remove it with PUT …/approval-policy (current_state: managed). Only enabling and disabling it is done here.",
  ),
  /** No integration grant with this id for the fleet (or visible to the caller). */
  "UZ-GRANT-001": def(
    404,
    "Integration grant not found",
    "No integration grant with this id is visible here.",
  ),
  /** The grant is not in a state the call can change; current_state names it. */
  "UZ-GRANT-002": def(
    409,
    "Grant not changeable",
    "The grant is not in a state this call can change (a decision needs a pending grant; a revoke needs one not already revoked); current_state names the state.",
  ),
  // Connectors and chat provider
  "UZ-CONN-001": def(400, "Chat connector error", "The chat-provider connector request is invalid."),
  "UZ-CONN-002": def(400, "Code-hosting connector error", "The code-hosting connector request is invalid."),
  "UZ-CONN-003": def(
    502,
    "Vendor unreachable",
    "An outbound vendor call hit its deadline or the vendor is unreachable; transient, retry.",
  ),
  "UZ-CONN-004": def(404, "Unknown provider", "{provider} matches no provider on the deployment."),
  "UZ-CONN-005": def(
    400,
    "Connector key rejected",
    "The API-key connector's key was rejected by the validation probe; nothing was stored.",
  ),
  /** A chat link token that does not verify, has expired, was spent, or belongs to another tenant. */
  "UZ-CONN-006": def(
    400,
    "Chat link not valid",
    "The chat link is forged, expired, already used or made for another tenant; click the gate's button in chat again for a fresh one.",
  ),
  /** The chat user of a link token is already linked to a member of the tenant. */
  "UZ-CONN-007": def(
    409,
    "Chat user already linked",
    "That chat user is already linked to a member of this tenant; the link must be removed first.",
  ),
  /** Removing another member's chat link without `workspace:admin`. */
  "UZ-CONN-008": def(
    403,
    "Not your chat link",
    "A member removes their own chat links; removing another member's needs workspace:admin.",
  ),
  /** A chat link id that names no link of the caller's tenant. */
  "UZ-CONN-009": def(404, "Chat link not found", "No chat link with this id in the caller's tenant."),
  /** A connect's callback reached a browser that did not start it, or one signed in as someone else. */
  "UZ-CONN-010": def(
    403,
    "Connect not started here",
    "The connector callback came back to a browser that did not start the connect, or one not signed in to the console as the person who started it; nothing was connected. Start the connect again from the console.",
  ),
  "UZ-SLK-010": def(401, "Invalid signature", "The events ingress signature does not verify."),
  "UZ-SLK-011": def(401, "Stale timestamp", "The events ingress timestamp is more than 5 minutes away."),
  "UZ-SLK-020": def(
    200,
    "Team not installed",
    "An event from a team with no install is acknowledged and ignored.",
  ),
  /** A click by a chat user linked to no member: nothing changes; they are told, ephemerally, how to link. */
  "UZ-SLK-040": def(
    200,
    "Chat user not linked",
    "A click on a gate by a chat user linked to no member changes nothing; the user is sent a one-time link to link their chat account from the console.",
  ),
  /** A click by a user of another organisation (a shared channel): never linked, never decides. */
  "UZ-SLK-041": def(
    200,
    "Chat user of another team",
    "A click by a user whose team is not the connected team (a shared channel) changes nothing and is never offered a link.",
  ),
  "UZ-SLK-022": def(502, "OAuth exchange failed", "The OAuth token exchange with the chat provider failed."),
  "UZ-SLK-030": def(
    502,
    "Answer delivery failed",
    "Delivering an answer to the chat provider failed; it is logged and retried, and the run never fails.",
  ),
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorRegistry;

/** The `application/problem+json` body every refusal carries. */
export const problemSchema = z
  .object({
    error_code: z.string(),
    title: z.string(),
    detail: z.string(),
    docs_uri: z.string(),
    request_id: z.string(),
    user_message: z.string().optional(),
    current_state: z.string().nullable().optional(),
    action_id: z.string().nullable().optional(),
    gate_id: z.string().nullable().optional(),
    outcome: z.string().nullable().optional(),
    resolved_by: z.string().nullable().optional(),
    resolved_at: z.number().int().nullable().optional(),
    etag: z.string().nullable().optional(),
    /** On a 403 UZ-APPROVAL-004: the approval policy rule that names who may answer. */
    rule: z.string().nullable().optional(),
    /** On a 409 UZ-APPROVAL-008: who has approved the gate so far. */
    approvals: z
      .array(z.object({ by: z.string(), user_id: z.string(), at: z.number().int(), counted: z.boolean() }))
      .optional(),
    missing_secrets: z.array(z.string()).optional(),
    missing_credentials: z.array(z.string()).optional(),
  })
  .meta({ id: "Problem" });
export type ProblemBody = z.infer<typeof problemSchema>;

/** Extra members a problem may carry beyond the registry's title and status. */
export type ProblemExtras = Omit<
  ProblemBody,
  "error_code" | "title" | "detail" | "docs_uri" | "request_id" | "user_message"
>;

/**
 * A refusal. Code anywhere throws `new Problem("UZ-…", { detail })`; one renderer turns it into
 * `application/problem+json` with the registry's status and title.
 */
export class Problem extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly extras: ProblemExtras;
  /** Response headers the refusal needs (Allow, Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { detail: string; headers?: Record<string, string> } & ProblemExtras,
  ) {
    const { detail, headers, ...extras } = options;
    super(detail);
    this.name = "Problem";
    this.code = code;
    this.status = errorRegistry[code].status;
    this.detail = detail;
    this.extras = extras;
    this.headers = headers ?? {};
  }

  toBody(requestId: string, docsUrl: string): ProblemBody {
    const entry: ErrorDefinition = errorRegistry[this.code];
    return {
      error_code: this.code,
      title: entry.title,
      detail: this.detail,
      docs_uri: `${docsUrl}#${this.code}`,
      request_id: requestId,
      ...(entry.userMessage === undefined ? {} : { user_message: entry.userMessage }),
      ...this.extras,
    };
  }
}
