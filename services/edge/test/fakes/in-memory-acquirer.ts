import type {
  Acquirer,
  OrderStatus,
  RefundInput,
  RegisteredOrder,
  RegisterOrderInput,
  Terminal,
} from "@gateway/acquirer";
import { GatewayError, randomBase62 } from "@gateway/platform";

/** What the buyer did on the card page, as a test decides it. */
export type OrderOutcome =
  | { status: "PENDING" }
  | { status: "SUCCEEDED"; cardBrand: string; lastFour: string }
  | { status: "FAILED"; failureCode: string };

/** The username of a terminal the acquirer refuses, as it refuses wrong credentials. */
export const REJECTED_TERMINAL_USERNAME = "rejected-terminal";

interface HeldOrder {
  registration: RegisterOrderInput;
  outcome: OrderOutcome;
}

/**
 * The card acquirer, an external system, held in memory behind the real port: orders stay
 * unpaid until a test decides their outcome; `down` makes every call fail as an unreachable
 * acquirer does; a terminal named REJECTED_TERMINAL_USERNAME is refused as bad credentials are.
 */
export class InMemoryAcquirer implements Acquirer {
  readonly orders = new Map<string, HeldOrder>();
  down = false;

  constructor(private readonly cardPageBase = "https://acquirer.test/epg/payment/") {}

  async registerOrder(registration: RegisterOrderInput): Promise<RegisteredOrder> {
    this.failIfUnusable(registration.terminal);
    const acquirerOrderId = `acq-${randomBase62(16)}`;
    this.orders.set(acquirerOrderId, { registration, outcome: { status: "PENDING" } });
    return { acquirerOrderId, formUrl: `${this.cardPageBase}${acquirerOrderId}` };
  }

  async getOrderStatus(input: { terminal: Terminal; acquirerOrderId: string }): Promise<OrderStatus> {
    this.failIfUnusable(input.terminal);
    const order = this.orders.get(input.acquirerOrderId);
    if (!order) throw new GatewayError("NOT_FOUND", "The acquirer does not know this order.");
    const base = {
      acquirerOrderId: input.acquirerOrderId,
      orderNumber: order.registration.orderNumber,
      amountMinor: order.registration.amountMinor,
      depositedMinor: 0n,
      refundedMinor: 0n,
      settled: false,
      actionCode: 0,
      actionCodeDescription: "",
    };
    switch (order.outcome.status) {
      case "PENDING":
        return { ...base, state: "CREATED", orderStatusCode: 0 };
      case "SUCCEEDED":
        return {
          ...base,
          state: "DEPOSITED",
          orderStatusCode: 2,
          depositedMinor: order.registration.amountMinor,
          card: { brand: order.outcome.cardBrand, lastFour: order.outcome.lastFour },
        };
      case "FAILED":
        return { ...base, state: "DECLINED", orderStatusCode: 6, failureCode: order.outcome.failureCode };
    }
  }

  async refund(input: RefundInput): Promise<void> {
    this.failIfUnusable(input.terminal);
  }

  async reverse(input: { terminal: Terminal; acquirerOrderId: string }): Promise<void> {
    this.failIfUnusable(input.terminal);
  }

  /** Test control: what the buyer did on the card page. */
  decide(acquirerOrderId: string, outcome: OrderOutcome): void {
    const order = this.orders.get(acquirerOrderId);
    if (!order) throw new Error(`unknown acquirer order ${acquirerOrderId}`);
    order.outcome = outcome;
  }

  private failIfUnusable(terminal: Terminal): void {
    if (this.down) throw new GatewayError("PROCESSOR_UNAVAILABLE", "The acquirer did not answer in time.");
    if (terminal.username === REJECTED_TERMINAL_USERNAME)
      throw new GatewayError("TERMINAL_REJECTED", "The acquirer refused the terminal's credentials.");
  }
}
