import type { Socket } from "node:net";
import { Problem } from "@fleet/contracts";
import { newRequestId } from "../runtime/ids.ts";

/**
 * Answers a request Node's HTTP parser could not read — a header block over 16 KiB, a malformed request
 * line — with a problem like every other refusal (Fastify's own answer is a bare JSON 400), then closes
 * the connection: nothing after a parse error can be read. A client that is already gone, that timed out
 * mid-request, or whose connection is still being answered (bytes after a request that declared no
 * body) just has its connection closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, docsUrl: string): void {
  // An answer still being written on this connection (bytes after a request it is answering) would be
  // interleaved with ours: close the connection instead, as Node does.
  const answering = (socket as Socket & { _httpMessage?: unknown })._httpMessage != null;
  if (
    answering ||
    !socket.writable ||
    error.code === "ECONNRESET" ||
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
  ) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const id = newRequestId();
  const problem = tooLarge
    ? new Problem("UZ-REQ-007", { detail: "The request line plus headers exceed 16 KiB." })
    : new Problem("UZ-REQ-001", { detail: "The request could not be read as HTTP/1.1." });
  const body = JSON.stringify(problem.toBody(id, docsUrl));
  socket.end(
    `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n` +
      "content-type: application/problem+json; charset=utf-8\r\n" +
      `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nconnection: close\r\n\r\n${body}`,
  );
}
