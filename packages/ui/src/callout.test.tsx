import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToString } from "react-dom/server";
import { Callout } from "./callout.tsx";

/** The warning sign's first stroke (AlertIcon). */
const WARNING_SIGN = 'd="M8 1.75 1.25 13.5h13.5L8 1.75Z"';

describe("Callout", () => {
  it("carries a warning sign only on warnings and dangers, a check on a success", () => {
    const html = (tone: "warning" | "danger" | "info" | "success") =>
      renderToString(<Callout tone={tone}>Done.</Callout>);
    assert.ok(html("warning").includes(WARNING_SIGN));
    assert.ok(html("danger").includes(WARNING_SIGN));
    assert.ok(!html("success").includes(WARNING_SIGN));
    assert.ok(html("success").includes('d="m3 8.5 3.25 3.25L13 5"'));
    assert.ok(!html("info").includes(WARNING_SIGN));
  });
});
