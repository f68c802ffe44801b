import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePorts } from "../src/index.js";

describe("freePorts", () => {
  it("when many ports are asked for at once, then they are all different, and each can be bound afterwards", async () => {
    const ports = await freePorts(40);
    expect(ports).toHaveLength(40);
    expect(new Set(ports).size).toBe(40);
    for (const port of ports.slice(0, 5)) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host: "127.0.0.1", port }, () => resolve());
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
