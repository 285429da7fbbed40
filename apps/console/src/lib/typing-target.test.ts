import assert from "node:assert/strict";
import { test } from "node:test";
import { isTyping } from "./typing-target.ts";

test("text fields, selects and editable elements take keys as text", () => {
  assert.equal(isTyping({ tagName: "INPUT", type: "text" }), true);
  assert.equal(isTyping({ tagName: "INPUT", type: "search" }), true);
  assert.equal(isTyping({ tagName: "INPUT" }), true);
  assert.equal(isTyping({ tagName: "TEXTAREA" }), true);
  assert.equal(isTyping({ tagName: "SELECT" }), true);
  assert.equal(isTyping({ tagName: "DIV", isContentEditable: true }), true);
});

test("a checkbox, a radio, a button or the page do not: shortcuts still work after ticking a box", () => {
  assert.equal(isTyping({ tagName: "INPUT", type: "checkbox" }), false);
  assert.equal(isTyping({ tagName: "INPUT", type: "RADIO" }), false);
  assert.equal(isTyping({ tagName: "INPUT", type: "submit" }), false);
  assert.equal(isTyping({ tagName: "BUTTON", type: "button" }), false);
  assert.equal(isTyping({ tagName: "A" }), false);
  assert.equal(isTyping(null), false);
  assert.equal(isTyping(undefined), false);
});
