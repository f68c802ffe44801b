import { connect } from "node:net";
import { embeddedLaunch } from "@gateway/launcher";
import { freePort, type ManagedProcess, startProcess } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantApi, request } from "./support/http.js";

// Issue 15 item 7, against the running gateway (embedded mode, one process): every answer under
// /checkout/ is a page, links never take a host from the request, HSTS follows an https public
// URL, and the answers Node would write itself are problem documents.
const DEMO_KEY = "sk_test_CheckoutAnswers01AbcdefghijklmnopqrstuvwxyzA";
const PUBLIC_URL = "https://pay.example.test";

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Sends `head` as written (no client fixes it up) and reads the answer until the server closes. */
function rawRequest(port: number, head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      let body = text.slice(split + 4);
      if (headers.get("transfer-encoding") === "chunked") body = dechunk(body);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body });
    });
  });
}

function dechunk(raw: string): string {
  let out = "";
  let rest = raw;
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

describe("answers under /checkout/ and Node's own answers (embedded mode)", () => {
  let proc: ManagedProcess;
  let url: string;
  let port: number;
  let token: string;

  beforeAll(async () => {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = await startProcess({
      name: "embedded-checkout-answers",
      ...embeddedLaunch,
      env: {
        PORT: String(port),
        GATEWAY_DEMO_TEST_KEY: DEMO_KEY,
        GATEWAY_PUBLIC_URL: PUBLIC_URL,
        MONGODB_URL: "",
        NATS_URL: "",
      },
      readyUrl: `${url}/healthz`,
      timeoutMs: 60_000,
    });
    const created = await merchantApi(url, DEMO_KEY).createSession({
      merchant_reference: "answers-1",
      amount: "5.000",
    });
    expect(created.status, created.text).toBe(201);
    token = new URL(created.body.checkout_url).pathname.split("/").at(-1)!;
  });

  afterAll(async () => {
    await proc?.stop();
  });

  for (const path of [
    "/checkout/%ff",
    "/checkout/%",
    `/checkout/${"a".repeat(101)}`,
    `/checkout/${"a".repeat(300)}/pay`,
    "/checkout/%ff/pay",
  ]) {
    it(`GET ${path.slice(0, 40)} is an HTML page, not JSON`, async () => {
      const res = await request(`${url}${path}`);
      expect([400, 404, 405]).toContain(res.status);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.text).toMatch(/^<!DOCTYPE html>/i);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    });
  }

  it("an absolute-form request naming another host puts no foreign host in the page's links", async () => {
    const answer = await rawRequest(
      port,
      `GET http://evil.example/checkout/${token}?lang=fr HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.body).toContain(`href="/checkout/${token}?lang=en"`);
    expect(answer.body).not.toContain("evil.example");
  });

  it("sends HSTS on checkout pages and API answers when the public URL is https", async () => {
    const page = await request(`${url}/checkout/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect((await request(`${url}/healthz`)).headers.get("strict-transport-security")).toBe(
      "max-age=31536000",
    );
  });

  it("a request without Host is 400 with a problem document", async () => {
    const answer = await rawRequest(port, "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ type: `${PUBLIC_URL}/errors/bad-request`, status: 400 });
  });

  it("an unsupported Expect is 417 with a problem document", async () => {
    const answer = await rawRequest(
      port,
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nExpect: bogus\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(417);
    expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({
      type: "about:blank",
      title: "Expectation Failed",
      status: 417,
    });
  });
});
