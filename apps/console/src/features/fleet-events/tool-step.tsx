"use client";

import { Badge } from "@fleet/ui";
import { formatDuration } from "./format.ts";
import type { ToolCallView } from "./runs.ts";
import "./tool-step.css";

/** A finished call's status in words, and the badge tone it reads with. */
const statusWords: Record<string, { label: string; tone: "success" | "danger" | "warning" | "neutral" }> = {
  ok: { label: "ok", tone: "success" },
  error: { label: "failed", tone: "danger" },
  refused: { label: "refused", tone: "warning" },
  denied: { label: "denied", tone: "warning" },
};

/** Arguments as a person reads them: JSON indented, anything else as it came. */
function argumentsText(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/**
 * One tool call of a run, folded to a line (name, status, duration) that opens on its arguments and its
 * output: the head and, when the output was longer than both, its tail after a gap.
 */
export function ToolStep({ tool }: { tool: ToolCallView }) {
  const done = tool.ms !== undefined;
  const status = tool.status === undefined ? undefined : (statusWords[tool.status] ?? statusWords.error!);
  const hasDetail = tool.args !== undefined || tool.outputHead !== undefined;
  const line = (
    <>
      Tool <code>{tool.name}</code> {status ? <Badge tone={status.tone}>{status.label}</Badge> : null}{" "}
      <span className="tool-step__time">
        {done
          ? `took ${formatDuration(tool.ms!)}`
          : tool.elapsedMs !== undefined
            ? `running for ${formatDuration(tool.elapsedMs)}…`
            : "running…"}
      </span>
    </>
  );
  return (
    <li
      className="run-step tool-step"
      data-step="tool"
      data-call-id={tool.callId}
      data-status={tool.status ?? "running"}
      data-done={done || undefined}
    >
      {hasDetail ? (
        <details className="tool-step__details">
          <summary className="tool-step__summary">{line}</summary>
          <div className="tool-step__body">
            {tool.args !== undefined ? (
              <>
                <p className="tool-step__label">Arguments</p>
                <pre className="tool-step__pre">{argumentsText(tool.args)}</pre>
              </>
            ) : null}
            {tool.outputHead !== undefined ? (
              <>
                <p className="tool-step__label">Output</p>
                <pre className="tool-step__pre">
                  {tool.outputHead}
                  {tool.outputTail ? (
                    <>
                      <span className="tool-step__gap">{"\n… (output cut here) …\n"}</span>
                      {tool.outputTail}
                    </>
                  ) : null}
                </pre>
              </>
            ) : done ? (
              <p className="tool-step__label">No output</p>
            ) : null}
          </div>
        </details>
      ) : (
        line
      )}
    </li>
  );
}
