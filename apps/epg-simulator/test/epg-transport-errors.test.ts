import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createEpgAcquirer, type Terminal } from "@gateway/acquirer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayErrorOf, registerOrder } from "./support/simulator-fixture.js";

// What the adapter makes of an acquirer that is down, broken or not an acquirer at all.
// Each base URL path of this fake server answers one way.

let server: Server;
let baseUrl: string;
const acquirer = createEpgAcquirer({ timeoutMs: 2_000 });

function terminalAt(path: string): Terminal {
  return { baseUrl: `${baseUrl}${path}`, username: "sim-merchant", password: "sim-password" };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const path = req.url ?? "";
    if (path.startsWith("/unavailable/")) {
      res.writeHead(503, { "content-type": "text/html" }).end("<h1>Service Unavailable</h1>");
    } else if (path.startsWith("/html/")) {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>");
    } else if (path.startsWith("/unauthorized/")) {
      res.writeHead(401).end();
    } else if (path.startsWith("/forbidden/")) {
      res.writeHead(403).end();
    } else if (path.startsWith("/array/")) {
      res.writeHead(200, { "content-type": "application/json" }).end("[]");
    } else if (path.startsWith("/odd-code/")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ errorCode: "E12" }));
    } else if (path.startsWith("/system-error/")) {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ errorCode: "7", errorMessage: "System error" }));
    } else if (path.startsWith("/no-form-url/")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ orderId: "abc" }));
    } else if (path.startsWith("/bad-status/")) {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ errorCode: "0", orderStatus: 42 }));
    } else if (path.startsWith("/float-amount/")) {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ errorCode: "0", orderStatus: 2, amount: 10.5 }));
    } else if (path.startsWith("/reset/")) {
      req.socket.destroy();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("when the acquirer cannot be reached", () => {
  it("then a closed port is PROCESSOR_UNAVAILABLE, and a refund there was certainly not performed", async () => {
    const terminal = { baseUrl: await closedPortUrl(), username: "u", password: "p" };
    const register = await gatewayErrorOf(registerOrder(acquirer, terminal));
    expect(register.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(register.message).toBe("The acquirer could not be reached.");

    const refund = await gatewayErrorOf(
      acquirer.refund({ terminal, acquirerOrderId: "o", amountMinor: 1n, externalRefundId: "re_1" }),
    );
    expect(refund.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(refund.metadata.outcome).toBe("not_performed");
  });

  it("then a connection dropped mid-call leaves the refund's outcome unknown", async () => {
    const err = await gatewayErrorOf(
      acquirer.refund({
        terminal: terminalAt("/reset"),
        acquirerOrderId: "o",
        amountMinor: 1n,
        externalRefundId: "re_1",
      }),
    );
    expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(err.metadata.outcome).toBe("unknown");
  });
});

describe("when the acquirer answers badly", () => {
  it("then a 5xx is PROCESSOR_UNAVAILABLE and a reversal's outcome is unknown", async () => {
    const status = await gatewayErrorOf(
      acquirer.getOrderStatus({ terminal: terminalAt("/unavailable"), acquirerOrderId: "o" }),
    );
    expect(status.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(status.metadata).toMatchObject({ http_status: "503", acquirer_operation: "status" });
    expect(status.metadata.outcome).toBeUndefined();

    const reverse = await gatewayErrorOf(
      acquirer.reverse({ terminal: terminalAt("/unavailable"), acquirerOrderId: "o" }),
    );
    expect(reverse.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(reverse.metadata.outcome).toBe("unknown");
  });

  it.each([["/html"], ["/array"], ["/odd-code"], ["/no-form-url"]])(
    "then an answer that is not a protocol answer (%s) is PROCESSOR_UNAVAILABLE",
    async (path) => {
      const err = await gatewayErrorOf(registerOrder(acquirer, terminalAt(path)));
      expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
      expect(err.message).toBe("The acquirer's answer could not be read.");
    },
  );

  it.each([["/bad-status"], ["/float-amount"]])(
    "then a status answer with impossible values (%s) is PROCESSOR_UNAVAILABLE",
    async (path) => {
      const err = await gatewayErrorOf(
        acquirer.getOrderStatus({ terminal: terminalAt(path), acquirerOrderId: "o" }),
      );
      expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    },
  );

  it("then an acquirer system error on register is retryable", async () => {
    const err = await gatewayErrorOf(registerOrder(acquirer, terminalAt("/system-error")));
    expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(err.metadata).toMatchObject({ acquirer_error_code: "7", acquirer_message: "System error" });
  });

  it.each([
    ["/unauthorized", "401"],
    ["/forbidden", "403"],
  ])("then HTTP %s is TERMINAL_REJECTED", async (path, httpStatus) => {
    const err = await gatewayErrorOf(registerOrder(acquirer, terminalAt(path)));
    expect(err.reason).toBe("TERMINAL_REJECTED");
    expect(err.metadata.http_status).toBe(httpStatus);
  });

  it("then an unknown path (HTTP 404) is PROCESSOR_UNAVAILABLE", async () => {
    const err = await gatewayErrorOf(registerOrder(acquirer, terminalAt("/nothing-here")));
    expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(err.metadata.http_status).toBe("404");
  });

  it("then a terminal base URL that is not http(s) is TERMINAL_REJECTED without a call", async () => {
    const err = await gatewayErrorOf(
      registerOrder(acquirer, { baseUrl: "ftp://acquirer.example", username: "u", password: "p" }),
    );
    expect(err.reason).toBe("TERMINAL_REJECTED");
  });

  it("then the terminal password never appears in an error", async () => {
    const terminal = { ...terminalAt("/unavailable"), password: "s3cret-terminal-password" };
    const err = await gatewayErrorOf(registerOrder(acquirer, terminal));
    expect(JSON.stringify({ message: err.message, metadata: err.metadata })).not.toContain(
      "s3cret-terminal-password",
    );
  });
});
