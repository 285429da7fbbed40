import { z } from "zod";
import { screenInput } from "./input-screen.ts";
import type { Scope } from "./scopes.ts";

/**
 * Credential classes. `session` covers the console's session token and the command-line credential;
 * `api_key` is a tenant API key (`agt_t`); `runner` a runner token (`agt_r`); `operator` an operator
 * session token carrying operator scopes.
 */
export const credentialClasses = ["session", "api_key", "runner", "operator"] as const;
export type CredentialClass = (typeof credentialClasses)[number];

/** The classes a tenant-facing route accepts unless it says otherwise. */
export const tenantCredentials = ["session", "api_key"] as const satisfies readonly CredentialClass[];

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type Shape = Record<string, z.ZodType>;

export interface OperationSpec<
  P extends Shape,
  Q extends Shape,
  B extends Shape,
  O extends z.ZodType,
  H extends Shape = Record<never, never>,
  Id extends string = string,
  C extends readonly CredentialClass[] = readonly CredentialClass[],
> {
  /**
   * tRPC procedure path, `<resource>.<verb>`: the resource is the folder the contract, procedure and
   * service live in (camel-cased), the verb its key in that resource's router.
   */
  id: Id;
  method: HttpMethod;
  /** `/v1/…` with `{param}` placeholders. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Scope the caller must hold; null when the route needs none. */
  scope: Scope | null;
  /** The credential classes the route accepts; empty for an open route. The procedure's principal follows. */
  credentials: C;
  /**
   * 303 is for a route a browser is sent to (a vendor's OAuth redirect): the resolver sets `Location` in
   * its response headers, and the body still follows `output`.
   */
  successStatus: 200 | 201 | 202 | 204 | 303;
  /**
   * Other success statuses the operation answers with the same body, each with when (201 for a new
   * resource and 200 for a repeat that found it, say). The resolver picks one through the response
   * extras; OpenAPI documents each.
   */
  otherSuccesses?: Partial<Record<200 | 201 | 202, string>>;
  /**
   * Refusal statuses the operation answers beyond those its shape implies (400 and 500 always; 401/403
   * with a credential or scope; 404 with a path parameter; 413/415 with a body). Listed in OpenAPI.
   */
  errorStatuses?: number[];
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Input fields that travel as request headers over REST: `if_match` is the `If-Match` header. Over
   * /trpc they are ordinary input fields.
   */
  requestHeaders?: H;
  output: O;
  /** Response headers every success carries (e.g. Cache-Control: no-store on a minted secret). */
  headers?: Record<string, string>;
  /**
   * The operation answers a Server-Sent Events stream (`text/event-stream`) rather than one JSON body:
   * the resolver returns what to subscribe to, and the REST surface hands it, with the raw response, to
   * the stream server; `output` describes the `data:` of each frame. /trpc does not serve it.
   */
  stream?: boolean;
  /**
   * The operation answers newline-delimited JSON (`application/x-ndjson`), streamed as it is read rather
   * than buffered whole: the resolver returns an async iterable of lines; `output` describes one line.
   * /trpc does not serve it.
   */
  ndjson?: boolean;
  /**
   * The operation relays a vendor's own answer as it came (its JSON, or its `text/event-stream`), not our
   * envelope: the resolver returns a `RelayAnswer` (status, headers, body or chunks) and the REST surface
   * writes it, flushing each chunk. /trpc does not serve it.
   */
  relay?: boolean;
  /** Body ceiling in bytes; the server default applies when absent. */
  bodyLimit?: number;
  /**
   * The body is a vendor's envelope, which grows fields the service does not read: fields beyond those
   * declared are accepted (and passed on) rather than refused. Declared fields are still checked.
   */
  openBody?: boolean;
  /**
   * The body may also come as `application/x-www-form-urlencoded` (a vendor's interaction deliveries),
   * each field once, as strings; every other operation refuses a form body with 415.
   */
  formBody?: boolean;
  deprecated?: boolean;
}

export interface Operation<
  P extends Shape = Shape,
  Q extends Shape = Shape,
  B extends Shape = Shape,
  O extends z.ZodType = z.ZodType,
  H extends Shape = Shape,
  Id extends string = string,
  C extends readonly CredentialClass[] = readonly CredentialClass[],
> extends OperationSpec<P, Q, B, O, H, Id, C> {
  params: P;
  query: Q;
  body: B;
  requestHeaders: H;
  /**
   * Every field, wherever it travels: what the procedure parses. An absent input (a tRPC call of an
   * operation with no required fields) parses as `{}`, so defaults still apply. The input passes
   * `screenInput` before the object schema sees it.
   */
  input: z.ZodType<z.output<FieldsOf<P & Q & B & H>>, z.input<FieldsOf<P & Q & B & H>> | undefined>;
}

type FieldsOf<S extends Shape> = z.ZodObject<S, z.core.$strict>;

/**
 * Refuses, before anything recursive reads it, input the database cannot hold or that nests too deep
 * (NUL, lone surrogates, depth: see input-screen.ts), and any input that is not an object. The issue
 * names the field, so both transports answer 400 UZ-REQ-001 with it.
 */
const screen = z.transform((value: unknown, payload) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    payload.issues.push({ code: "custom", message: "must be a JSON object", input: undefined, path: [] });
    return z.NEVER;
  }
  const fault = screenInput(value);
  if (fault === null) return value;
  const field = fault.path.join(".");
  const message = field ? `${field} ${fault.message}` : fault.message;
  payload.issues.push({ code: "custom", message, input: undefined, path: fault.path });
  return z.NEVER;
});

/**
 * What an operation answers on success: its output schema's type. Clients and tests name a response by
 * its operation (`OutputOf<typeof createFleet>`) instead of restating the shape.
 */
export type OutputOf<Op extends { output: z.ZodType }> = z.output<Op["output"]>;

/** The request header an input field travels in: `if_none_match` → `if-none-match`. */
export function headerName(field: string): string {
  return field.replaceAll("_", "-");
}

/** Declares one operation: its meta, where each input field travels, and its output. */
export function defineOperation<
  const P extends Shape = Record<never, never>,
  const Q extends Shape = Record<never, never>,
  const B extends Shape = Record<never, never>,
  O extends z.ZodType = z.ZodType,
  const H extends Shape = Record<never, never>,
  const Id extends string = string,
  const C extends readonly CredentialClass[] = readonly CredentialClass[],
>(spec: OperationSpec<P, Q, B, O, H, Id, C>): Operation<P, Q, B, O, H, Id, C> {
  const params = (spec.params ?? {}) as P;
  const query = (spec.query ?? {}) as Q;
  const body = (spec.body ?? {}) as B;
  const requestHeaders = (spec.requestHeaders ?? {}) as H;
  const shape = { ...params, ...query, ...body, ...requestHeaders };
  const fields = spec.openBody ? z.looseObject(shape) : z.strictObject(shape);
  // Typed as the object schema it ends in: the screen passes what it accepts through unchanged.
  const input = screen.pipe(fields).prefault({}) as unknown as Operation<P, Q, B, O, H>["input"];
  return { ...spec, params, query, body, requestHeaders, input };
}

/** Parameters every paged list refuses because they were retired. */
export const retiredPagingParams = ["page", "page_size", "cursor"] as const;
