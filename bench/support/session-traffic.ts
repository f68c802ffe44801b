// The three requests bench/http-scale-bench.ts measures, against one target: create a session
// (a unique merchant reference each time, the body of test/e2e/sessions.test.ts), GET one, and
// GET its hosted checkout page (time to first byte). Each throws on an unexpected status.
import { HttpClient, type HttpSender, type Send } from "./http-load.js";
import type { Target } from "./http-targets.js";

const SESSIONS_PATH = "/api/v1/gateway/sessions/";
/** Created sessions remembered for GETs; the rest are only counted. */
const KEEP = 5000;

/** The three requests, by the name the bench's tables give them. */
export type RequestName = "create" | "GET session" | "checkout page (TTFB)";

/**
 * What another thread needs to send the same traffic to the same target
 * (./open-loop-in-worker.ts): plain data, since a function cannot cross to a worker.
 */
export interface TrafficSpec {
  url: string;
  key: string;
  /** Its creates' merchant references start with this; no other traffic uses it. */
  referencePrefix: string;
  getPool: readonly string[];
  checkoutPaths: readonly string[];
}

/** Amounts are decimal strings (TND has three decimals): 2 × 62.750 = 125.500. */
function createBody(reference: string): string {
  return JSON.stringify({
    merchant_reference: reference,
    amount: "125.500",
    currency: "TND",
    order_id: "A-1",
    description: "Two books",
    items: [{ name: "Book", quantity: 2, unit_price: "62.750", description: "Paperback" }],
    buyer_email: "buyer@example.com",
    return_url: "https://shop.example/ok",
    cancel_url: "https://shop.example/cancel",
  });
}

export class SessionTraffic {
  readonly ids: string[] = [];
  readonly checkoutPaths: string[] = [];
  private readonly headers: Record<string, string>;
  private created = 0;
  private getPool: readonly string[] | undefined;
  private nextGet = 0;
  private nextCheckout = 0;
  private specs = 0;

  constructor(
    private readonly target: Pick<Target, "url" | "key">,
    private readonly referencePrefix: string,
    private readonly client: HttpSender = new HttpClient(target.url),
  ) {
    this.headers = { authorization: `Bearer ${target.key}`, "content-type": "application/json" };
  }

  /**
   * The same traffic in another thread, its creates under a merchant reference prefix of their
   * own, sent through `client` if given.
   */
  static fromSpec(spec: TrafficSpec, client?: HttpSender): SessionTraffic {
    const traffic = new SessionTraffic(spec, spec.referencePrefix, client);
    traffic.getFrom(spec.getPool);
    traffic.checkoutPaths.push(...spec.checkoutPaths);
    return traffic;
  }

  /** This traffic as data for another thread; each spec's creates get a reference prefix never used before. */
  spec(): TrafficSpec {
    return {
      url: this.target.url,
      key: this.target.key,
      referencePrefix: `${this.referencePrefix}-w${this.specs++}`,
      getPool: [...(this.getPool ?? this.ids)],
      checkoutPaths: [...this.checkoutPaths],
    };
  }

  /** The request of that name. */
  send(request: RequestName): Send {
    if (request === "create") return this.create;
    return request === "GET session" ? this.get : this.checkout;
  }

  /** GETs go to these ids from now on (pre-stored sessions), instead of the ones created here. */
  getFrom(ids: readonly string[]): void {
    this.getPool = ids;
  }

  readonly create: Send = async () => {
    const reference = `${this.referencePrefix}-${this.created++}`;
    const a = await this.client.send("POST", SESSIONS_PATH, this.headers, createBody(reference));
    if (a.status !== 201) throw new Error(`create: HTTP ${a.status} ${a.body.slice(0, 200)}`);
    if (this.ids.length < KEEP) {
      const { id, checkout_url } = JSON.parse(a.body) as { id: string; checkout_url: string };
      this.ids.push(id);
      this.checkoutPaths.push(new URL(checkout_url).pathname);
    }
    return a.totalMs;
  };

  readonly get: Send = async () => {
    const pool = this.getPool ?? this.ids;
    const id = pool[this.nextGet++ % pool.length];
    const a = await this.client.send("GET", `${SESSIONS_PATH}${id}/`, this.headers);
    if (a.status !== 200) throw new Error(`GET session: HTTP ${a.status} ${a.body.slice(0, 200)}`);
    return a.totalMs;
  };

  /** Latency sample: time to first byte, the page's first paint waits on it. */
  readonly checkout: Send = async () => {
    const path = this.checkoutPaths[this.nextCheckout++ % this.checkoutPaths.length];
    const a = await this.client.send("GET", path!, { accept: "text/html" });
    if (a.status !== 200) throw new Error(`checkout page: HTTP ${a.status} ${a.body.slice(0, 200)}`);
    return a.ttfbMs;
  };

  close(): void {
    this.client.close();
  }
}
