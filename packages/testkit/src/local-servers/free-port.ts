import { type AddressInfo, createServer, type Server } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: the OS picks it, we release it. Another
 * process may take it before the caller binds it, so callers retry on "address in use".
 */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/** True when nothing listens on 127.0.0.1:`port` right now (checked by binding it briefly). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE" || err.code === "EACCES") resolve(false);
      else reject(err);
    });
    server.listen({ host: "127.0.0.1", port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * `count` distinct free ports. Each port is held open until all are chosen: ports picked one
 * after another may repeat (the OS can hand a just-released port out again), and two services
 * given the same port would have one answer the other's readiness check.
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  try {
    while (held.length < count) held.push(await listenOnFreePort());
    return held.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(held.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, () => resolve(server));
  });
}
