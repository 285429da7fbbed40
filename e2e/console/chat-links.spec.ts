import { randomUUID } from "node:crypto";
import { signDelivery } from "@fleet/testing/fake-chat-vendor";
import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import { call } from "../support/fleet-api.ts";

/** A click on a gate's Approve button by `user` of `teamId`, signed and form-encoded as the vendor sends it. */
async function clickAsChatUser(apiUrl: string, teamId: string, user: string) {
  const payload = JSON.stringify({
    type: "block_actions",
    team: { id: teamId },
    user: { id: user },
    channel: { id: "C0E2E" },
    // A gate id in the right form: an unlinked click is refused before the gate is looked up.
    actions: [{ action_id: "fleet_gate_approve", value: uuidv7ish(), action_ts: `${Date.now()}.1` }],
  });
  const body = new URLSearchParams({ payload }).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(`${apiUrl}/v1/connectors/slack/events`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": signDelivery(process.env.E2E_VENDOR_SIGNING_SECRET!, timestamp, body),
    },
    body,
  });
  return (await response.json()) as { status: string; error_code?: string };
}

function uuidv7ish(): string {
  const hex = randomUUID().replaceAll("-", "");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The link the vendor showed `user` ephemerally. */
async function linkShownTo(user: string): Promise<string> {
  await expect
    .poll(async () => {
      const shown = (await (await fetch(`${process.env.E2E_VENDOR_URL}/_fake/ephemeral`)).json()) as {
        user: string;
        text: string;
      }[];
      return shown.find((message) => message.user === user)?.text ?? "";
    })
    .toContain("/connect/chat-link?token=");
  const shown = (await (await fetch(`${process.env.E2E_VENDOR_URL}/_fake/ephemeral`)).json()) as {
    user: string;
    text: string;
  }[];
  return /<([^|>]+)\|/.exec(shown.find((message) => message.user === user)!.text)![1]!;
}

test.describe("Chat links", () => {
  test("an unlinked chat user's link is confirmed by the signed-in member, listed, and removed", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    test.slow();
    const problems = collectProblems(page);
    await openFromNavigation(page, tenant, "Connectors", "/connectors");
    const slack = page.getByRole("region", { name: "Slack" });
    await slack.getByRole("button", { name: "Connect Slack" }).click();
    await page.getByRole("link", { name: "Allow" }).click();
    await expect(slack.getByText("Connected", { exact: true })).toBeVisible();
    const connector = await call<{ team: { id: string } }>(
      apiUrl,
      tenant.api_key,
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/connectors/slack`,
    );
    const chatUser = `U${randomUUID().slice(0, 8).toUpperCase()}`;
    expect(await clickAsChatUser(apiUrl, connector.team.id, chatUser)).toEqual({
      status: "ignored",
      error_code: "UZ-SLK-040",
    });
    const link = await linkShownTo(chatUser);

    // Opening the link only shows what it binds; the member links it by pressing the button.
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "Link a chat account" })).toBeVisible();
    await expect(page.getByText(chatUser, { exact: true }).first()).toBeVisible();
    await screenshot(page, testInfo, "chat-link-confirm");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Link chat account" }).click();
    await expect(page.getByRole("status").getByText("Linked.")).toBeVisible();
    const accounts = page.getByRole("region", { name: "Your chat accounts" });
    await expect(accounts.getByRole("row", { name: new RegExp(chatUser) })).toBeVisible();

    // The link is single-use.
    await page.goto(link);
    await page.getByRole("button", { name: "Link chat account" }).click();
    await expect(page.getByText(/The chat link is not valid/)).toBeVisible();

    // Removed from the Connectors page, behind a confirmation that says what stops.
    await page.goto(`/connectors?workspace=${tenant.workspace_id}`);
    await page.getByRole("button", { name: new RegExp(`Remove chat link ${chatUser}`) }).click();
    const confirm = page.getByRole("dialog", { name: /Remove chat link/ });
    await expect(confirm).toContainText("stop answering gates");
    await confirm.getByRole("button", { name: "Remove link" }).click();
    await expect(page.getByText("No chat account is linked to you.")).toBeVisible();
    expect(problems).toEqual([]);
  });
});
