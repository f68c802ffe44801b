import { randomUUID } from "node:crypto";
import type { Logger, NatsConnection } from "@gateway/platform";
import type { EndpointChangeNotices } from "../../app/ports.js";
import type { AccountScope } from "../../domain/account-scope.js";

/** Core NATS subject every webhooks replica announces endpoint changes on. */
export const ENDPOINT_CHANGES_SUBJECT = "gateway.webhooks.endpoint-changed";

interface Notice {
  /** The announcing replica, which ignores its own notices. */
  from: string;
  merchantId: string;
  livemode: boolean;
}

/**
 * Endpoint change notices over core NATS, shared by the webhooks replicas. Core NATS, not
 * JetStream: a notice matters only to replicas running now, and one that misses it forgets what
 * it remembered a few seconds later anyway. The connection is the caller's.
 */
export function natsEndpointChangeNotices(nc: NatsConnection, logger: Logger): EndpointChangeNotices {
  const replica = randomUUID();
  return {
    announce(scope) {
      if (nc.isClosed()) return;
      const notice: Notice = { from: replica, merchantId: scope.merchantId, livemode: scope.livemode };
      try {
        nc.publish(ENDPOINT_CHANGES_SUBJECT, JSON.stringify(notice));
      } catch (err) {
        logger.warn({ err }, "endpoint change not announced; other replicas forget it within seconds");
      }
    },
    listen(onChange) {
      const subscription = nc.subscribe(ENDPOINT_CHANGES_SUBJECT, {
        callback: (err, msg) => {
          if (err) return;
          const notice = readNotice(msg.string());
          if (notice && notice.from !== replica) onChange(notice.scope);
        },
      });
      return () => subscription.unsubscribe();
    },
  };
}

function readNotice(text: string): { from: string; scope: AccountScope } | undefined {
  try {
    const value = JSON.parse(text) as Partial<Notice>;
    if (
      typeof value.from === "string" &&
      typeof value.merchantId === "string" &&
      typeof value.livemode === "boolean"
    )
      return { from: value.from, scope: { merchantId: value.merchantId, livemode: value.livemode } };
  } catch {
    // Not a notice of ours: ignored.
  }
  return undefined;
}
