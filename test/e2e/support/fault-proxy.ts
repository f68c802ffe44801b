import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to one matching request after the gateway has answered it. */
export type Fault =
  /** The gateway acted, but the client is told `status` (with `Retry-After: retryAfter`). */
  | { kind: "status"; status: number; retryAfter?: string }
  /** The gateway acted, but the connection drops before the client hears the answer. */
  | { kind: "drop" };

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** What the client got: the gateway's status, or the injected fault. */
  answered: number | "dropped";
}

export interface FaultProxy {
  url: string;
  /** The next request matching `method` and `path` gets `fault` (once). */
  injectOnce(method: string, path: RegExp, fault: Fault): void;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A reverse proxy on loopback in front of a gateway that passes every request through and, once per
 * injected fault, replaces the gateway's answer with a 503/429 or a dropped connection. The request
 * always reaches the gateway first: the worst case for a retry, where the payment or refund was made
 * and only the answer was lost.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const faults: { method: string; path: RegExp; fault: Fault }[] = [];
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
        headers.set(name, value);
    const upstream = await fetch(new URL(req.url ?? "/", target), {
      method: req.method,
      headers,
      body: body === "" ? undefined : body,
      redirect: "manual",
    });
    const upstreamBody = Buffer.from(await upstream.arrayBuffer());
    const path = new URL(req.url ?? "/", target).pathname;
    const at = faults.findIndex((f) => f.method === req.method && f.path.test(path));
    const fault = at >= 0 ? faults.splice(at, 1)[0]!.fault : undefined;
    const record = { method: req.method ?? "", path, headers: req.headers, body };
    if (fault?.kind === "drop") {
      seen.push({ ...record, answered: "dropped" });
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "status") {
      seen.push({ ...record, answered: fault.status });
      res.writeHead(fault.status, {
        "content-type": "application/problem+json",
        ...(fault.retryAfter !== undefined ? { "retry-after": fault.retryAfter } : {}),
      });
      res.end(
        JSON.stringify({ type: "about:blank", title: "Injected", status: fault.status, detail: "injected" }),
      );
      return;
    }
    seen.push({ ...record, answered: upstream.status });
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!["content-length", "transfer-encoding", "connection", "content-encoding"].includes(name))
        out[name] = value;
    });
    res.writeHead(upstream.status, out);
    res.end(upstreamBody);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    injectOnce: (method, path, fault) => void faults.push({ method, path, fault }),
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
