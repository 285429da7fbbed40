import { connect, type Socket } from "node:net";

export interface Answer {
  status: number;
  body: unknown;
}

const HEAD_END = Buffer.from("\r\n\r\n");

/**
 * One keep-alive HTTP/1.1 connection that sends one request at a time: the bench's load generator.
 * It shares the machine with the server it measures, so it does no more than a runner must: a request
 * written in one piece, the status and `Content-Length` read from the head, the JSON body parsed.
 * Node's `http.request` cost ~3× as much CPU per request here, taken from the server under test.
 */
export class BenchConnection {
  private socket: Socket | null = null;
  private pending: { resolve: (answer: Answer) => void; reject: (error: Error) => void } | null = null;
  private buffered: Buffer = Buffer.alloc(0);

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  static to(base: string): BenchConnection {
    const url = new URL(base);
    return new BenchConnection(url.hostname, Number(url.port));
  }

  post(path: string, token: string, body: unknown): Promise<Answer> {
    const payload = JSON.stringify(body);
    const head =
      `POST ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nauthorization: Bearer ${token}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n`;
    return this.send(head + payload);
  }

  get(path: string, token: string): Promise<Answer> {
    return this.send(
      `GET ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nauthorization: Bearer ${token}\r\n\r\n`,
    );
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private send(request: string): Promise<Answer> {
    if (this.pending !== null) return Promise.reject(new Error("one request at a time per connection"));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.open().write(request);
    });
  }

  private open(): Socket {
    if (this.socket !== null) return this.socket;
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on("data", (chunk: Buffer) => this.received(chunk));
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = null;
      this.buffered = Buffer.alloc(0);
      const pending = this.pending;
      this.pending = null;
      pending?.reject(error);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the server closed the connection")));
    this.socket = socket;
    return socket;
  }

  private received(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.buffered.toString("latin1", 0, headEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length === null) {
      this.socket?.destroy(new Error(`a response without Content-Length: ${head.split("\r\n")[0]}`));
      return;
    }
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (this.buffered.length < end) return;
    const status = Number(head.slice(9, 12));
    const text = this.buffered.toString("utf8", headEnd + HEAD_END.length, end);
    this.buffered = this.buffered.subarray(end);
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status, body: text ? JSON.parse(text) : null });
  }
}
