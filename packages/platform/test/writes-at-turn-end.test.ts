import { once } from "node:events";
import { createServer as createHttpServer, request } from "node:http";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { holdWritesUntilTurnEnds } from "../src/server/writes-at-turn-end.js";

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.close();
    if (server.listening) await once(server, "close");
  }
});

/** A TCP server whose connections hold their writes, and a way to reach it. */
async function holdingServer(
  onConnection: (socket: Socket) => void,
): Promise<{ connectClient: () => Socket }> {
  const server = createServer(onConnection);
  holdWritesUntilTurnEnds(server);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { connectClient: () => connect(port, "127.0.0.1") };
}

/** Everything a client receives until the server ends the connection. */
async function receiveAll(client: Socket): Promise<string> {
  let text = "";
  client.setEncoding("utf8");
  client.on("data", (chunk: string) => {
    text += chunk;
  });
  await once(client, "end");
  client.destroy();
  return text;
}

describe("writes held until the event loop's turn ends", () => {
  it("when a connection writes, then its bytes wait in the socket until the turn ends, and arrive whole and in order", async () => {
    const heldLengths: number[] = [];
    const { connectClient } = await holdingServer((socket) => {
      socket.write("first,");
      socket.cork();
      socket.write("corked head,");
      socket.write("corked body,");
      socket.uncork();
      socket.write("last");
      // On loopback a write that is not held completes at once, leaving nothing queued.
      heldLengths.push(socket.writableLength);
      socket.end();
    });
    expect(await receiveAll(connectClient())).toBe("first,corked head,corked body,last");
    expect(heldLengths).toEqual(["first,corked head,corked body,last".length]);
  });

  it("when a connection is destroyed just after writing, then what it wrote still goes out before it closes", async () => {
    const callbacks: string[] = [];
    const { connectClient } = await holdingServer((socket) => {
      socket.on("error", () => undefined);
      socket.write("HTTP/1.1 400 Bad Request\r\n\r\n", (err) => callbacks.push(err?.message ?? "written"));
      socket.destroy();
    });
    const client = connectClient();
    let received = "";
    client.setEncoding("utf8");
    client.on("data", (chunk: string) => {
      received += chunk;
    });
    client.on("error", () => undefined);
    await once(client, "close");
    expect(received).toBe("HTTP/1.1 400 Bad Request\r\n\r\n");
    expect(callbacks).toEqual(["written"]);
  });

  it("when one connection's held write throws as it is handed over, then it fails through its own callback and the others' writes still arrive", async () => {
    const failures: string[] = [];
    const accepted: Socket[] = [];
    const { connectClient } = await holdingServer((socket) => {
      socket.on("error", () => undefined);
      accepted.push(socket);
      if (accepted.length < 3) return;
      // All three answer in one turn, the broken one first: its failure must not strand the rest.
      const [first, ...rest] = accepted as [Socket, Socket, Socket];
      Object.assign(first, {
        _writeGeneric: () => {
          throw new Error("write refused");
        },
      });
      first.write("never sent", (err) => failures.push(err?.message ?? "written"));
      for (const [i, other] of rest.entries()) other.end(`answer ${i + 2}`);
    });
    const broken = connectClient();
    broken.on("error", () => undefined);
    const answers = await Promise.all([connectClient(), connectClient()].map(receiveAll));
    expect(answers.sort()).toEqual(["answer 2", "answer 3"]);
    broken.destroy();
    expect(failures).toEqual(["write refused"]);
  });

  it("when many keep-alive HTTP clients and a pipelining one ask at once, then each answer reaches its own request, in order", async () => {
    const server = createHttpServer((req, res) => {
      res.setHeader("content-type", "text/plain");
      res.end(`answer to ${req.url}`);
    });
    holdWritesUntilTurnEnds(server);
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;

    const ask = (path: string) =>
      new Promise<string>((resolve, reject) => {
        request({ host: "127.0.0.1", port, path }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () => resolve(body));
        })
          .on("error", reject)
          .end();
      });
    const paths = Array.from({ length: 40 }, (_, i) => `/r${i}`);
    expect(await Promise.all(paths.map(ask))).toEqual(paths.map((path) => `answer to ${path}`));

    const pipelining = connect(port, "127.0.0.1");
    pipelining.write(
      ["/p1", "/p2", "/p3"].map((path) => `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`).join("") +
        "GET /p4 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    );
    const raw = await receiveAll(pipelining);
    expect([...raw.matchAll(/answer to (\/p\d)/g)].map((m) => m[1])).toEqual(["/p1", "/p2", "/p3", "/p4"]);
  });
});
