import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openLoopsInWorker } from "../support/open-loop-in-worker.js";
import { SessionTraffic } from "../support/session-traffic.js";

/** A stand-in gateway on loopback: records what it was sent, answers with `status`. */
async function standIn(status: number) {
  const seen: Array<{ method: string; url: string; reference?: string; connection?: string }> = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      const reference = body
        ? (JSON.parse(body) as { merchant_reference?: string }).merchant_reference
        : undefined;
      const { connection } = req.headers;
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        ...(reference ? { reference } : {}),
        ...(connection ? { connection } : {}),
      });
      const id = `s${seen.length}`;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ id, checkout_url: `http://127.0.0.1/checkout/${id}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("openLoopsInWorker", () => {
  const closers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /** One 0.2-s loop at 100 requests/s: 20 requests. */
  async function shortLoop(traffic: SessionTraffic, request: "create" | "GET session") {
    const [result] = await openLoopsInWorker({ traffic: traffic.spec(), request, rate: 100, loops: [0.2] });
    return result!;
  }

  async function trafficTo(status: number) {
    const target = await standIn(status);
    closers.push(target.close);
    const traffic = new SessionTraffic({ url: target.url, key: "k" }, "bench-t");
    closers.push(() => traffic.close());
    return { target, traffic };
  }

  it("sends creates from a worker, loop after loop, each under a merchant reference no other traffic used", async () => {
    const { target, traffic } = await trafficTo(201);
    await traffic.create();
    const [first, second] = await openLoopsInWorker({
      traffic: traffic.spec(),
      request: "create",
      rate: 100,
      loops: [0.2, 0.3],
    });
    const [third] = await openLoopsInWorker({
      traffic: traffic.spec(),
      request: "create",
      rate: 100,
      loops: [0.3],
    });
    expect([first, second, third].map((r) => [r!.requests, r!.errors])).toEqual([
      [20, 0],
      [30, 0],
      [30, 0],
    ]);
    const references = target.seen.map((s) => s.reference);
    expect(references).toHaveLength(81);
    expect(new Set(references).size).toBe(81);
  });

  it("sends GETs only to the sessions the traffic was pointed at", async () => {
    const { target, traffic } = await trafficTo(200);
    traffic.getFrom(["a", "b"]);
    const result = await shortLoop(traffic, "GET session");
    expect([result.requests, result.errors]).toEqual([20, 0]);
    expect(new Set(target.seen.map((s) => `${s.method} ${s.url}`))).toEqual(
      new Set(["GET /api/v1/gateway/sessions/a/", "GET /api/v1/gateway/sessions/b/"]),
    );
  });

  it("sends through the lean client, not node:http's (whose agent says connection: keep-alive)", async () => {
    const { target, traffic } = await trafficTo(201);
    await traffic.create();
    expect(target.seen[0]!.connection).toBe("keep-alive"); // this thread's traffic: node:http
    const result = await shortLoop(traffic, "create");
    expect([result.requests, result.errors]).toEqual([20, 0]);
    expect(target.seen.slice(1).map((s) => s.connection)).toEqual(Array(20).fill(undefined));
  });

  it("counts wrong answers as failures, with the first one's status", async () => {
    const { traffic } = await trafficTo(503);
    const result = await shortLoop(traffic, "create");
    expect([result.requests, result.errors]).toEqual([0, 20]);
    expect(result.firstError).toMatch(/^create: HTTP 503/);
  });

  it("keeps its schedule while the thread that started it is busy", async () => {
    const { traffic } = await trafficTo(201);
    // The stand-in answers from this thread too, so only the sending can keep the schedule: in
    // this thread, a request due during the 400-ms block would start 400 ms late.
    const loop = openLoopsInWorker({ traffic: traffic.spec(), request: "create", rate: 50, loops: [1.5] });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const until = performance.now() + 400;
    while (performance.now() < until) {
      // Busy, as a collection or a synchronous parse would keep it.
    }
    const [result] = await loop;
    expect(result!.errors).toBe(0);
    expect(result!.maxStartDelayMs).toBeLessThan(200);
  });

  it("refuses a rate or a duration that is not a positive number, or no loop, without starting a worker", async () => {
    const traffic = new SessionTraffic({ url: "http://127.0.0.1:1", key: "k" }, "bench-t");
    closers.push(() => traffic.close());
    const jobs: Array<[number, number[]]> = [
      [Number.NaN, [1]],
      [0, [1]],
      [100, [1, -1]],
      [100, [Number.POSITIVE_INFINITY]],
      [100, []],
    ];
    for (const [rate, loops] of jobs) {
      const job = { traffic: traffic.spec(), request: "create" as const, rate, loops };
      await expect(openLoopsInWorker(job)).rejects.toThrow(RangeError);
    }
  });

  it("when the job says the generator polls, then the worker's loop keeps a core busy; otherwise it mostly sleeps", async () => {
    const { traffic } = await trafficTo(201);
    await traffic.create();
    /** CPU seconds this process (every thread, the worker's included) spent per wall second. */
    const coresDuring = async (generatorPolls: boolean) => {
      const cpu = process.cpuUsage();
      const began = performance.now();
      const [result] = await openLoopsInWorker({
        traffic: traffic.spec(),
        request: "create",
        rate: 50,
        loops: [1],
        generatorPolls,
      });
      expect(result!.errors).toBe(0);
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1000 / (performance.now() - began);
    };
    const polling = await coresDuring(true);
    const sleeping = await coresDuring(false);
    // Polling keeps about a whole core busy here, sleeping about a quarter of one (worker start-up
    // included); the bounds leave room for a machine busy with other tests.
    expect(polling).toBeGreaterThan(0.5);
    expect(polling).toBeGreaterThan(sleeping * 2);
  });
});
