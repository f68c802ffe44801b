import type { LookupAddress, LookupOptions } from "node:dns";
import { describe, expect, it } from "vitest";
import { ForbiddenAddressError, guardedLookup, type ResolveAll } from "../../src/adapters/http/index.js";

function resolverOf(answer: LookupAddress[] | NodeJS.ErrnoException): ResolveAll & { calls: number } {
  const resolve = ((
    _host: string,
    _options: LookupOptions,
    callback: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void,
  ) => {
    resolve.calls += 1;
    if (answer instanceof Error) callback(answer, []);
    else callback(null, answer);
  }) as ResolveAll & { calls: number };
  resolve.calls = 0;
  return resolve;
}

function run(lookup: ReturnType<typeof guardedLookup>, options: LookupOptions) {
  return new Promise<{
    err: NodeJS.ErrnoException | null;
    address: string | LookupAddress[];
    family?: number;
  }>((resolve) =>
    lookup("merchant.example", options, (err, address, family) => resolve({ err, address, family })),
  );
}

const strict = { allowPrivate: false, allowCidrs: [] };

describe("guardedLookup", () => {
  it("when every address is public, then all of them are returned for the socket to connect to", async () => {
    const addresses = [
      { address: "93.184.215.14", family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    ];
    const result = await run(guardedLookup(strict, resolverOf(addresses)), { all: true });
    expect(result.err).toBeNull();
    expect(result.address).toEqual(addresses);
  });

  it("when a single address is asked for, then the first public one is returned with its family", async () => {
    const result = await run(guardedLookup(strict, resolverOf([{ address: "8.8.8.8", family: 4 }])), {});
    expect(result).toEqual({ err: null, address: "8.8.8.8", family: 4 });
  });

  it("when any resolved address is private, then the whole host is refused with that address named", async () => {
    const resolve = resolverOf([
      { address: "8.8.8.8", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ]);
    const result = await run(guardedLookup(strict, resolve), { all: true });
    expect(result.err).toBeInstanceOf(ForbiddenAddressError);
    expect(result.err?.message).toBe("Refused to deliver to a private or reserved address (10.0.0.1)");
  });

  it("when the name resolves to an IPv4-mapped loopback, then the message shows the IPv4 address", async () => {
    const result = await run(
      guardedLookup(strict, resolverOf([{ address: "::ffff:127.0.0.1", family: 6 }])),
      {},
    );
    expect(result.err?.message).toBe("Refused to deliver to a private or reserved address (127.0.0.1)");
  });

  it("when the private address is allow-listed, then it is returned", async () => {
    const policy = { allowPrivate: false, allowCidrs: ["10.0.0.0/8"] };
    const result = await run(guardedLookup(policy, resolverOf([{ address: "10.0.0.1", family: 4 }])), {});
    expect(result).toEqual({ err: null, address: "10.0.0.1", family: 4 });
  });

  it("when private addresses are allowed (test/development), then nothing is refused", async () => {
    const result = await run(
      guardedLookup(
        { allowPrivate: true, allowCidrs: [] },
        resolverOf([{ address: "127.0.0.1", family: 4 }]),
      ),
      {},
    );
    expect(result).toEqual({ err: null, address: "127.0.0.1", family: 4 });
  });

  it("when resolution fails, then its error is passed on unchanged", async () => {
    const failure = Object.assign(new Error("getaddrinfo ENOTFOUND merchant.example"), { code: "ENOTFOUND" });
    const result = await run(guardedLookup(strict, resolverOf(failure)), { all: true });
    expect(result.err).toBe(failure);
  });

  it("when resolution returns nothing, then it is an ENOTFOUND error", async () => {
    const result = await run(guardedLookup(strict, resolverOf([])), {});
    expect(result.err?.code).toBe("ENOTFOUND");
  });

  it("when the allow-list holds an invalid CIDR, then creating the lookup throws", () => {
    expect(() => guardedLookup({ allowPrivate: false, allowCidrs: ["nope"] })).toThrow(/nope/);
  });
});
