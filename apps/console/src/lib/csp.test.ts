import assert from "node:assert/strict";
import { test } from "node:test";
import { contentSecurityPolicy, newNonce } from "./csp.ts";

test("a nonce is fresh each time and the policy names it for scripts only", () => {
  const [a, b] = [newNonce(), newNonce()];
  assert.notEqual(a, b);
  assert.match(a, /^[A-Za-z0-9+/]{22}==$/);
  const policy = contentSecurityPolicy(a);
  assert.match(policy, new RegExp(`script-src 'nonce-${a.replace(/[+/]/g, "\\$&")}' 'strict-dynamic';`));
  assert.doesNotMatch(policy, /unsafe-eval/);
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
    assert.ok(policy.includes(directive), directive);
  assert.match(contentSecurityPolicy(a, true), /'strict-dynamic' 'unsafe-eval'/);
});
