import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_IDLE_MS, LeanHttpClient } from "../support/lean-http-client.js";

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listening(server: Server | ReturnType<typeof createTcpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A node:http server that echoes what it was sent as JSON, and counts its connections. */
async function echoServer(answer?: (res: import("node:http").ServerResponse, body: string) => void) {
  const sockets = new Set<Socket>();
  let connections = 0;
  let open = 0;
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      if (answer) return answer(res, body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  server.on("connection", (s: Socket) => {
    connections++;
    open++;
    sockets.add(s);
    s.on("close", () => open--);
  });
  const url = await listening(server);
  closers.push(() => {
    for (const s of sockets) s.destroy();
  });
  const dropConnections = () => {
    for (const s of sockets) s.destroy();
  };
  return { url, connections: () => connections, openConnections: () => open, dropConnections };
}

/** A TCP server that answers each connection's first request with `respond`. */
async function rawServer(respond: (socket: Socket) => void | Promise<void>) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.once("data", () => void respond(socket));
  });
  const url = await listening(server);
  closers.push(() => {
    for (const s of sockets) s.destroy();
  });
  return url;
}

function client(url: string, maxSockets?: number, maxIdleMs?: number): LeanHttpClient {
  const c = new LeanHttpClient(url, maxSockets, maxIdleMs);
  closers.push(() => c.close());
  return c;
}

describe("LeanHttpClient", () => {
  it("sends a POST's method, path, headers and body, and reads the status and a UTF-8 body", async () => {
    const { url } = await echoServer();
    const body = JSON.stringify({ amount: "125.500", note: "café ✓" });
    const answer = await client(url).send("POST", "/api/v1/x/?a=1", { authorization: "Bearer k" }, body);
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body) as {
      method: string;
      url: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(seen).toMatchObject({ method: "POST", url: "/api/v1/x/?a=1", body });
    expect(seen.headers).toMatchObject({
      authorization: "Bearer k",
      host: new URL(url).host,
      "content-length": String(Buffer.byteLength(body)),
    });
    expect(answer.ttfbMs).toBeGreaterThan(0);
    expect(answer.totalMs).toBeGreaterThanOrEqual(answer.ttfbMs);
  });

  it("reads a status other than 200 and an empty body", async () => {
    const { url } = await echoServer((res) => {
      res.writeHead(404);
      res.end();
    });
    expect(await client(url).send("GET", "/missing", {})).toMatchObject({ status: 404, body: "" });
  });

  it("carries requests one after another on one kept-alive connection", async () => {
    const { url, connections } = await echoServer();
    const c = client(url);
    for (let i = 0; i < 5; i++) expect((await c.send("GET", `/${i}`, {})).status).toBe(200);
    expect(connections()).toBe(1);
  });

  it("opens at most maxSockets connections and queues the other requests", async () => {
    const { url, connections } = await echoServer((res, body) => {
      setTimeout(() => res.end(body), 20);
    });
    const c = client(url, 2);
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => c.send("POST", "/", {}, `request ${i}`)),
    );
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 7 }, (_, i) => `request ${i}`));
    expect(connections()).toBe(2);
  });

  it("joins a chunked body written in pieces", async () => {
    const { url } = await echoServer(async (res) => {
      res.writeHead(200, { "content-type": "text/html" });
      for (const piece of ["<p>", "Tunis ", "dinar", "</p>"]) {
        res.write(piece);
        await sleep(5);
      }
      res.end();
    });
    const c = client(url);
    expect((await c.send("GET", "/", {})).body).toBe("<p>Tunis dinar</p>");
    expect((await c.send("GET", "/", {})).body).toBe("<p>Tunis dinar</p>"); // still in step
  });

  it("reads a response that arrives a byte at a time, and times its first byte", async () => {
    const response = "HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello";
    const url = await rawServer(async (socket) => {
      for (const byte of Buffer.from(response)) {
        socket.write(Buffer.of(byte));
        await sleep(byte === 0x68 /* "h", the body's first byte */ ? 100 : 0);
      }
    });
    const answer = await client(url).send("GET", "/", {});
    expect(answer).toMatchObject({ status: 201, body: "hello" });
    expect(answer.ttfbMs).toBeLessThan(answer.totalMs - 50);
  });

  it("opens a new connection after the server answered with connection: close", async () => {
    const { url, connections } = await echoServer((res) => {
      res.writeHead(200, { connection: "close" });
      res.end("bye");
    });
    const c = client(url);
    expect((await c.send("GET", "/", {})).body).toBe("bye");
    expect((await c.send("GET", "/", {})).body).toBe("bye");
    expect(connections()).toBe(2);
  });

  it("fails a request whose connection closes before the answer, and the next one still goes through", async () => {
    let calls = 0;
    const { url } = await echoServer((res) => {
      calls++;
      if (calls === 1) res.socket?.destroy();
      else res.end("ok");
    });
    const c = client(url);
    await expect(c.send("GET", "/", {})).rejects.toThrow(/closed the connection before answering|ECONNRESET/);
    expect((await c.send("GET", "/", {})).body).toBe("ok");
  });

  it("reuses a connection idle for less than maxIdleMs, and closes one idle for longer instead", async () => {
    const { url, connections, openConnections } = await echoServer();
    const c = client(url, undefined, 60);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    expect(connections()).toBe(1);
    await sleep(150);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    expect(connections()).toBe(2);
    await sleep(50);
    expect(openConnections()).toBe(1);
  });

  it("when the connection it would reuse is stale, then it closes every idle one freed before it too", async () => {
    const { url, connections, openConnections } = await echoServer((res, body) => {
      setTimeout(() => res.end(body), 20);
    });
    const c = client(url, undefined, 60);
    await Promise.all(Array.from({ length: 3 }, (_, i) => c.send("POST", "/", {}, `request ${i}`)));
    expect(connections()).toBe(3);
    await sleep(150);
    expect((await c.send("POST", "/", {}, "after the idle")).body).toBe("after the idle");
    await sleep(50);
    expect(connections()).toBe(4);
    expect(openConnections()).toBe(1);
  });

  it("by default reuses a connection idle for a second, within every usual keep-alive timeout", async () => {
    expect(DEFAULT_MAX_IDLE_MS).toBeLessThan(5_000); // Node's own server closes idle connections at 5 s
    const { url, connections } = await echoServer();
    const c = client(url);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    await sleep(1_000);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    expect(connections()).toBe(1);
  });

  it("forgets an idle connection the server closed", async () => {
    const { url, connections, dropConnections } = await echoServer();
    const c = client(url);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    dropConnections(); // as a keep-alive timeout would
    await sleep(50);
    expect((await c.send("GET", "/", {})).status).toBe(200);
    expect(connections()).toBe(2);
  });

  it.each([
    ["a line that is not a status line", "garbage\r\n\r\n", /not an HTTP\/1.1 status line/],
    ["an invalid content-length", "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n", /invalid content-length/],
    [
      "bytes after the body",
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokay",
      /bytes after the response's body/,
    ],
    [
      "a chunk without a size",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n",
      /valid size/,
    ],
  ])("refuses %s", async (_name, response, error) => {
    const url = await rawServer((socket) => {
      socket.write(response);
    });
    await expect(client(url).send("GET", "/", {})).rejects.toThrow(error);
  });

  it("refuses a response head that never ends once it is over 64 KiB", async () => {
    const url = await rawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nX-Long: ${"a".repeat(70 * 1024)}`);
    });
    await expect(client(url).send("GET", "/", {})).rejects.toThrow(/head over 65536 bytes/);
  });

  it("fails a request to a port nobody listens on", async () => {
    const url = await rawServer(() => undefined);
    const port = new URL(url).port;
    await closers.pop()!(); // close the server: its port now refuses
    await closers.pop()!();
    await expect(new LeanHttpClient(`http://127.0.0.1:${port}`).send("GET", "/", {})).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it("rejects the queued requests and any new one once closed", async () => {
    const { url } = await echoServer((res) => {
      setTimeout(() => res.end("late"), 50);
    });
    const c = new LeanHttpClient(url, 1);
    const first = c.send("GET", "/", {});
    const queued = c.send("GET", "/", {});
    c.close();
    await expect(queued).rejects.toThrow(/closed/);
    expect((await first).body).toBe("late");
    await expect(c.send("GET", "/", {})).rejects.toThrow(/closed/);
  });

  it("speaks plain HTTP only", () => {
    expect(() => new LeanHttpClient("https://127.0.0.1:1")).toThrow(/plain HTTP/);
  });
});
