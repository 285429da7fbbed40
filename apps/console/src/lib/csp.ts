/** The request header that hands a page's nonce to its server components (the root layout's head script). */
export const NONCE_HEADER = "x-nonce";

/** A fresh nonce for one response: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The console's Content-Security-Policy for one page. Scripts run only with this response's nonce (Next
 * reads it from this header on the request and puts it on its own scripts), and what they load inherits
 * the trust ('strict-dynamic'), so an injected `<script>` or event-handler attribute does not run.
 * Styles allow inline attributes: the server-rendered markup sets a few (skeleton widths, chart colours),
 * and a nonce in style-src would turn 'unsafe-inline' off. Development adds 'unsafe-eval', which React's
 * development build needs for its error overlays.
 */
export function contentSecurityPolicy(nonce: string, development = false): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** HSTS for a console reached over https: a year, its subdomains left to their own policy. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";
