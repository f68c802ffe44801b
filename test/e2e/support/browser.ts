import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, headless, with the flags a container needs (no sandbox, no GPU, no sync). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface MerchantSite {
  /** http://127.0.0.1:<port>; /thanks and /cancel answer a page with a distinct heading. */
  url: string;
  /** Paths (with query) the site was asked for, in order. */
  visits: string[];
  close(): Promise<void>;
}

export const MERCHANT_THANKS_HEADING = "Merchant: order complete";
export const MERCHANT_CANCEL_HEADING = "Merchant: payment canceled";

/** A stand-in for the merchant's own site, where the buyer lands after checkout. */
export async function startMerchantSite(): Promise<MerchantSite> {
  const visits: string[] = [];
  const server: Server = createServer((req, res) => {
    visits.push(req.url ?? "");
    const heading = req.url?.startsWith("/thanks") ? MERCHANT_THANKS_HEADING : MERCHANT_CANCEL_HEADING;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${heading}</title></head><body><main><h1>${heading}</h1></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    visits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
