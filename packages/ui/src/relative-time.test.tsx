import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToString } from "react-dom/server";
import { RelativeTime, RenderedAtProvider } from "./relative-time.tsx";

const day = 86_400_000;
const renderedAt = Date.UTC(2026, 10, 27, 12, 0, 0);

/** The label of a server-rendered time, without its tooltip. */
const label = (html: string) => /<time[^>]*>([^<]*)<\/time>/.exec(html)?.[1];

describe("RelativeTime on the server", () => {
  it("writes its words against the moment the page was rendered", () => {
    const html = renderToString(
      <RenderedAtProvider at={renderedAt}>
        <RelativeTime value={renderedAt - 3 * day} />
        <RelativeTime value={renderedAt - 2 * 3_600_000} />
      </RenderedAtProvider>,
    );
    assert.deepEqual(
      [...html.matchAll(/<time[^>]*>([^<]*)<\/time>/g)].map((match) => match[1]),
      ["3 days ago", "2 hours ago"],
    );
    assert.match(html, /2026-11-24 12:00:00 UTC/);
    // The reader's own zone is the browser's to write.
    assert.doesNotMatch(html, /\(local\)/);
  });

  it("reads just now under no provider, where no moment is known", () => {
    assert.equal(label(renderToString(<RelativeTime value={renderedAt - 3 * day} />)), "just now");
  });
});
