import { create } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createClient,
  createContextKey,
  createContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import { AccountsService, AuthenticateResponseSchema } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { readErrorDetail } from "../src/errors/connect-errors.js";
import { GatewayError } from "../src/errors/gateway-error.js";
import { MAX_SIGNAL_USES } from "../src/server/call-signal.js";
import { createInProcessTransport } from "../src/server/in-process-transport.js";
import { captureLogger } from "./capture-logger.js";

const CALLER = createContextKey<string>("nobody", { description: "who called, set by the client" });

/**
 * An accounts service in process whose Authenticate answers by key: "missing" → NOT_FOUND,
 * "boom" → a bug, "hang" → never answers (ignoring its signal), "wait" → answers, leaving a
 * listener on its signal that records the abort reason in `seen.endReason`, "echo" → request
 * header and context value back, with a response header and trailer.
 */
function accountsInProcess(o: { clientInterceptors?: Interceptor[]; interceptors?: Interceptor[] } = {}) {
  const logs = captureLogger("accounts");
  const seen: { signal?: AbortSignal; request?: object; timeLeft?: number; endReason?: unknown } = {};
  const routes = (router: ConnectRouter) =>
    router.service(AccountsService, {
      async authenticate(req, context) {
        seen.signal = context.signal;
        seen.request = req;
        seen.timeLeft = context.timeoutMs();
        if (req.apiKey === "missing")
          throw new GatewayError("NOT_FOUND", "No API key matches.", { metadata: { id: "key_1" } });
        if (req.apiKey === "boom") throw new Error("database password=hunter2 leaked in a stack");
        if (req.apiKey === "hang") await new Promise<never>(() => {});
        if (req.apiKey === "wait") {
          const signal = context.signal;
          signal.addEventListener("abort", () => (seen.endReason = signal.reason), { once: true });
        }
        context.responseHeader.set("x-answered-by", "accounts");
        context.responseTrailer.set("x-trailer", "done");
        return create(AuthenticateResponseSchema, {
          keyId: `${context.requestHeader.get("x-request-id")}|${context.values.get(CALLER)}`,
        });
      },
    });
  const transport = createInProcessTransport({
    name: "accounts",
    routes,
    logger: logs.logger,
    ...o,
  });
  return { client: createClient(AccountsService, transport), logs, seen };
}

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (e: unknown) => ConnectError.from(e),
  );

describe("in-process transport", () => {
  it("when a call is made, then the handler sees its headers and context values and the client its response headers and trailers", async () => {
    const { client } = accountsInProcess();
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const res = await client.authenticate(
      { apiKey: "echo" },
      {
        headers: { "x-request-id": "req_1" },
        contextValues: createContextValues().set(CALLER, "edge"),
        onHeader: (h) => (header = h),
        onTrailer: (t) => (trailer = t),
      },
    );
    expect(res.keyId).toBe("req_1|edge");
    expect(header?.get("x-answered-by")).toBe("accounts");
    expect(trailer?.get("x-trailer")).toBe("done");
  });

  it("when a handler throws GatewayError NOT_FOUND, then the client gets Code.NotFound with the ErrorDetail, as over the network", async () => {
    const { client } = accountsInProcess();
    const err = await failureOf(client.authenticate({ apiKey: "missing" }));
    expect(err?.code).toBe(Code.NotFound);
    const detail = readErrorDetail(err!);
    expect(detail?.reason).toBe("NOT_FOUND");
    expect(detail?.domain).toBe("accounts.gateway");
    expect(detail?.metadata).toEqual({ id: "key_1" });
    // The server's own error object stays on the server's side.
    expect(err?.cause).toBeUndefined();
  });

  it("when a handler fails unexpectedly, then the client gets INTERNAL without the cause and the error is logged", async () => {
    const { client, logs } = accountsInProcess();
    const err = await failureOf(client.authenticate({ apiKey: "boom" }));
    expect(err?.code).toBe(Code.Internal);
    expect(err?.rawMessage).toBe("Internal error.");
    expect(JSON.stringify({ message: err?.message, cause: String(err?.cause) })).not.toContain("hunter2");
    expect(logs.lines().find((l) => l.msg === "unexpected error in RPC handler")?.level).toBe(50);
  });

  it("when the deadline passes before a handler that ignores its signal answers, then the client gets DEADLINE_EXCEEDED on time and the handler's signal is aborted", async () => {
    const { client, seen } = accountsInProcess();
    const began = performance.now();
    const err = await failureOf(client.authenticate({ apiKey: "hang" }, { timeoutMs: 50 }));
    expect(err?.code).toBe(Code.DeadlineExceeded);
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(seen.signal?.aborted).toBe(true);
  });

  it("when the caller cancels, then the client gets CANCELED at once and the handler's signal is aborted", async () => {
    const { client, seen } = accountsInProcess();
    const controller = new AbortController();
    const call = failureOf(client.authenticate({ apiKey: "hang" }, { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect((await call)?.code).toBe(Code.Canceled);
    expect(seen.signal?.aborted).toBe(true);
  });

  it("when interceptors are given, then the client's run around the server's, which run around the handler", async () => {
    const order: string[] = [];
    const named =
      (name: string): Interceptor =>
      (next) =>
      async (req) => {
        order.push(`${name} in`);
        const res = await next(req);
        order.push(`${name} out`);
        return res;
      };
    const { client } = accountsInProcess({
      clientInterceptors: [named("client")],
      interceptors: [named("server")],
    });
    await client.authenticate({ apiKey: "echo" });
    expect(order).toEqual(["client in", "server in", "server out", "client out"]);
  });

  it("when a handler leaves something waiting on its signal, then the signal is aborted once the call has answered, freeing it", async () => {
    const { client, seen } = accountsInProcess();
    await client.authenticate({ apiKey: "wait" });
    expect(seen.signal?.aborted).toBe(true);
    expect(ConnectError.from(seen.endReason).code).toBe(Code.Canceled);
  });

  it("when calls answer, then each handler's signal ends with one shared reason, so no call builds an exception of its own", async () => {
    const { client, seen } = accountsInProcess();
    await client.authenticate({ apiKey: "wait" });
    const first = seen.endReason;
    await client.authenticate({ apiKey: "wait" });
    expect(first).toBeInstanceOf(ConnectError);
    expect(seen.endReason).toBe(first);
  });

  it("when a call with neither a caller's signal nor a deadline answers with nothing waiting on its signal, then the next such call reuses that signal, not aborted", async () => {
    const { client, seen } = accountsInProcess();
    await client.authenticate({ apiKey: "echo" });
    const first = seen.signal;
    await client.authenticate({ apiKey: "echo" });
    expect(seen.signal).toBe(first);
    expect(first?.aborted).toBe(false);
    await client.authenticate({ apiKey: "echo" }, { timeoutMs: 5_000 });
    expect(seen.signal).not.toBe(first);
    expect(seen.signal?.aborted).toBe(true);
  });

  it("when a reused signal has served its most calls, then it is aborted and the next call gets another", async () => {
    const { client, seen } = accountsInProcess();
    await client.authenticate({ apiKey: "echo" });
    const first = seen.signal;
    let calls = 1;
    while (seen.signal === first && calls <= MAX_SIGNAL_USES) {
      await client.authenticate({ apiKey: "echo" });
      calls += 1;
    }
    expect(seen.signal).not.toBe(first);
    expect(calls).toBeLessThanOrEqual(MAX_SIGNAL_USES + 1);
    expect(first?.aborted).toBe(true);
    expect(ConnectError.from(first?.reason).code).toBe(Code.Canceled);
  });

  it("when the caller sets a deadline, then the handler sees the time left before it, and no deadline when none is set", async () => {
    const { client, seen } = accountsInProcess();
    await client.authenticate({ apiKey: "echo" }, { timeoutMs: 5_000 });
    expect(seen.timeLeft).toBeGreaterThan(4_000);
    expect(seen.timeLeft).toBeLessThanOrEqual(5_000);
    await client.authenticate({ apiKey: "echo" });
    expect(seen.timeLeft).toBeUndefined();
  });

  it("when the caller's signal is already aborted, then the handler never runs and the client gets CANCELED", async () => {
    const { client, seen } = accountsInProcess();
    const err = await failureOf(client.authenticate({ apiKey: "echo" }, { signal: AbortSignal.abort() }));
    expect(err?.code).toBe(Code.Canceled);
    expect(seen.request).toBeUndefined();
  });
});
