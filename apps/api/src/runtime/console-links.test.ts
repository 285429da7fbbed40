import { describe, expect, it } from "vitest";
import { gateConsoleUrl, runConsoleUrl } from "./console-links.ts";

describe("console links", () => {
  it("names a run's page with its workspace, and a gate in the inbox with its workspace", () => {
    const ids = { workspaceId: "w1", fleetId: "f1", eventId: "e1", gateId: "g1" };
    expect(runConsoleUrl("http://localhost:3000", ids)).toBe(
      "http://localhost:3000/fleets/f1/runs/e1?workspace=w1",
    );
    expect(gateConsoleUrl("https://console.example", ids)).toBe(
      "https://console.example/approvals?workspace=w1&gate=g1",
    );
  });
});
