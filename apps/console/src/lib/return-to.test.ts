import assert from "node:assert/strict";
import { test } from "node:test";
import { returnPath } from "./return-to.ts";

test("a page behind sign-in is returned to with its whole query", () => {
  for (const target of [
    "/approvals?workspace=w&gate=g&status=pending",
    "/fleets/f/runs/e?workspace=w",
    "/device?code=ABCD-EFGH",
    "/overview",
  ])
    assert.equal(returnPath(target), target);
});

test("anything that is not a console page on this origin is not returned to", () => {
  for (const target of [
    undefined,
    "",
    "//evil.example/approvals",
    "/\\evil.example",
    "https://evil.example/approvals",
    "/sign-in",
    "/auth/link?token=x",
    "/trpc/users.me",
    "/v1/users/me",
    "/approvalsx",
    `/approvals?${"a".repeat(2048)}`,
  ])
    assert.equal(returnPath(target), undefined, String(target));
});
