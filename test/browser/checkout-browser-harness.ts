import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createEpgAcquirer, simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { createEdgeApp } from "@gateway/edge";
import { createEpgSimulator, type EpgSimulator } from "@gateway/epg-simulator";
import { createLogger, errorDetailInterceptor, systemClock } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { simulatorTerminal } from "../../services/edge/test/checkout/simulator-checkout-acquirer.js";
import { FakeAccountsService } from "../../services/edge/test/fakes/fake-accounts-service.js";
import { SessionsUnderTest } from "../../services/edge/test/fakes/sessions-under-test.js";

export interface CheckoutBrowserStack {
  /** The edge's public URL (127.0.0.1 and a free port). */
  edgeUrl: string;
  /** A stand-in merchant site: /thanks and /cancel answer a small page. */
  merchantUrl: string;
  sessions: SessionsUnderTest;
  simulator: EpgSimulator;
  close(): Promise<void>;
}

/** A port nobody listens on right now (the edge's public URL must be known before it is built). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function startMerchantSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const page = req.url?.startsWith("/thanks") ? "Merchant: order complete" : "Merchant: payment canceled";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page}</title></head><body><main><h1>${page}</h1></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The edge over real HTTP with the real sessions service, whose acquirer is the REAL EPG
 * simulator mounted on the same edge at /epg (reached through the EPG protocol adapter):
 * checkout page -> Pay -> simulator card page -> /checkout/return -> the merchant.
 */
export async function startCheckoutBrowserStack(): Promise<CheckoutBrowserStack> {
  const merchant = await startMerchantSite();
  const port = await freePort();
  const edgeUrl = `http://127.0.0.1:${port}`;
  const simulator = createEpgSimulator({ publicUrl: edgeUrl });
  const sessions = new SessionsUnderTest(
    systemClock,
    createLogger({ service: "sessions", level: "silent" }),
    {
      publicUrl: edgeUrl,
      acquirer: createEpgAcquirer({ timeoutMs: 5_000 }),
      terminal: simulatorTerminal(simulatorTerminalBaseUrl(edgeUrl)),
    },
  );
  const router = { router: { interceptors: [errorDetailInterceptor("test")] } };
  const app: FastifyInstance = createEdgeApp({
    accounts: createClient(
      AccountsService,
      createRouterTransport((r) => r.service(AccountsService, new FakeAccountsService(systemClock)), router),
    ),
    sessions: createClient(SessionService, sessions.transport()),
    logger: createLogger({ service: "edge", level: "silent" }),
    config: {
      errorsUrl: `${edgeUrl}/errors`,
      maxBodyBytes: 65536,
      authCacheTtlMs: 1000,
      checkout: { publicUrl: edgeUrl },
    },
    epgSimulator: simulator,
  });
  await app.listen({ port, host: "127.0.0.1" });
  return {
    edgeUrl,
    merchantUrl: merchant.url,
    sessions,
    simulator,
    async close() {
      simulator.stop();
      await app.close();
      merchant.server.closeAllConnections();
      await new Promise<void>((resolve) => merchant.server.close(() => resolve()));
    },
  };
}
