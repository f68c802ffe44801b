import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestEdge, ERRORS_URL, type TestEdge } from "./fakes/edge-test-harness.js";

const SESSIONS = "/api/v1/gateway/sessions/";

/** The same cases as the inject tests, over a real socket: Node's HTTP parser and body streaming. */
describe("edge listening on a real port", () => {
  let t: TestEdge;
  let base: string;
  let port: number;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = createTestEdge({ maxBodyBytes: 1024 });
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = Number(new URL(base).port);
    headers = { ...bearer((await t.accounts.issueKey()).secret), "content-type": "application/json" };
  });
  afterAll(async () => {
    await t.app.close();
  });

  it("when the body is over the limit, then 413 payload-too-large", async () => {
    const body = JSON.stringify({
      merchant_reference: "big",
      amount: "1.000",
      description: "x".repeat(2000),
    });
    const res = await fetch(`${base}${SESSIONS}`, { method: "POST", headers, body });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({
      type: `${ERRORS_URL}/payload-too-large`,
      title: "Payload Too Large",
      status: 413,
    });
    expect(t.sessions.createRequests).toHaveLength(0);
  });

  it("when a chunked body grows over the limit, then 413 payload-too-large", async () => {
    const { status, contentType, body } = await new Promise<{
      status: number;
      contentType: string;
      body: string;
    }>((resolve, reject) => {
      const req = httpRequest(
        `${base}${SESSIONS}`,
        { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers["content-type"]),
              body: text,
            }),
          );
        },
      );
      req.on("error", reject);
      req.write('{"description":"');
      for (let i = 0; i < 8; i++) req.write("y".repeat(256));
      req.end('"}');
    });
    expect(status).toBe(413);
    expect(contentType).toBe("application/problem+json");
    expect(JSON.parse(body).type).toBe(`${ERRORS_URL}/payload-too-large`);
  });

  it("when the JSON is malformed, then 400 bad-request", async () => {
    const res = await fetch(`${base}${SESSIONS}`, {
      method: "POST",
      headers,
      body: '{"merchant_reference": "x", ',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: `${ERRORS_URL}/bad-request`,
      title: "Bad Request",
      status: 400,
      detail: "The request body is not valid JSON.",
      instance: SESSIONS,
    });
  });

  it("when the request is not even HTTP, then a 400 problem document is written to the socket", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("NONSENSE\r\n\r\n"));
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw.startsWith("HTTP/1.1 400 Bad Request\r\n")).toBe(true);
    expect(raw).toContain("Content-Type: application/problem+json");
    expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)).type).toBe(`${ERRORS_URL}/bad-request`);
  });

  it("when a create succeeds over HTTP, then metadata comes back byte-identical", async () => {
    const metadata = '{"b":1,"a":"x.y","$k":[[1,2]],"n":1.50,"2":true}';
    const res = await fetch(`${base}${SESSIONS}`, {
      method: "POST",
      headers,
      body: `{"merchant_reference":"http-1","amount":"1.000","metadata":${metadata}}`,
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toContain(`"metadata":${metadata},`);
  });

  it("when answers are written, then they wait in their sockets until the event loop's turn ends, and every one arrives", async () => {
    // 'prefinish' fires inside end(), once the answer is handed to the socket: a socket that
    // wrote it at once has nothing queued; one that holds it until the turn ends still has it.
    const queuedAtEnd: number[] = [];
    const onRequest = (_req: unknown, res: import("node:http").ServerResponse) =>
      res.once("prefinish", () => queuedAtEnd.push(res.socket?.writableLength ?? -1));
    t.app.server.on("request", onRequest);
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => fetch(`${base}${SESSIONS}sess_missing00000${i}/`, { headers })),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(8).fill(404));
      expect(queuedAtEnd).toHaveLength(8);
      for (const queued of queuedAtEnd) expect(queued).toBeGreaterThan(0);
    } finally {
      t.app.server.off("request", onRequest);
    }
  });
});
