import assert from "node:assert/strict";
import { test } from "node:test";
import { providerProblemInWords } from "./provider-words.ts";

const refusal = (detail: string, error_code = "UZ-PROVIDER-005") => ({
  title: "Invalid base_url",
  detail,
  error_code,
  request_id: "01a2",
  docs_uri: "https://docs/#x",
});

test("says what to change for each of the address guard's reasons, without the code", () => {
  const cases: [string, RegExp][] = [
    ["base_url must use https.", /https:\/\//],
    ["base_url must name a public host.", /private or local network/],
    ["base_url's host internal.example resolves to an address that is not public.", /private or local/],
    ["base_url's host nowhere.invalid does not resolve.", /did not resolve/],
    ["base_url must not carry credentials.", /user name and password/],
    ["base_url is not a URL.", /not a web address/],
    ["base_url is not accepted for anthropic, which is reached at its own endpoint.", /leave Base URL empty/],
  ];
  for (const [detail, words] of cases) {
    const shown = providerProblemInWords(refusal(detail));
    assert.equal(shown.title, "The address was refused");
    assert.match(shown.detail, words, detail);
    assert.doesNotMatch(shown.detail, /base_url|UZ-/);
    assert.equal(shown.error_code, undefined);
    assert.equal(shown.request_id, "01a2");
  }
});

test("keeps the API's words for a refusal it does not know", () => {
  const shown = providerProblemInWords(refusal("Something else.", "UZ-API-001"));
  assert.equal(shown.title, "Invalid base_url");
  assert.equal(shown.detail, "Something else.");
  assert.equal(shown.error_code, undefined);
});
