// The messages of one distributed create's call between the edge and the sessions service, as
// bench/service-call-bench.ts sends and answers them: the bench's create body
// (bench/support/session-traffic.ts) as a CreateSessionRequest, and a session as the sessions
// service returns it for that request.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  type CreateSessionRequestSchema,
  type CreateSessionResponse,
  CreateSessionResponseSchema,
  SessionStatus,
} from "@gateway/proto";

const SCOPE = { merchantId: "mer_01JDK6Z3Q0F8D5N2M1X7Y4V9T6", livemode: false };
const ITEMS = [{ name: "Book", quantity: 2, unitPrice: "62.750", description: "Paperback" }];
const HOUR_MS = 3_600_000;

export const createSessionRequest: MessageInitShape<typeof CreateSessionRequestSchema> = {
  scope: SCOPE,
  merchantReference: "bench-1732626000000-000001",
  amount: "125.500",
  currency: "TND",
  orderId: "A-1",
  description: "Two books",
  items: ITEMS,
  buyerEmail: "buyer@example.com",
  returnUrl: "https://shop.example/ok",
  cancelUrl: "https://shop.example/cancel",
};

export function createSessionAnswer(nowMs: number): CreateSessionResponse {
  return create(CreateSessionResponseSchema, {
    created: true,
    session: {
      id: "ps_01JDK6Z3Q0F8D5N2M1X7Y4V9T6",
      scope: SCOPE,
      merchantReference: createSessionRequest.merchantReference,
      orderNumber: "GW-01JDK6Z3Q0F8D5N2M1X7Y4V9T6",
      orderId: "A-1",
      amount: "125.500",
      currency: "TND",
      description: "Two books",
      items: ITEMS,
      status: SessionStatus.CREATED,
      buyerEmail: "buyer@example.com",
      returnUrl: "https://shop.example/ok",
      cancelUrl: "https://shop.example/cancel",
      maxAttempts: 3,
      checkoutUrl:
        "http://127.0.0.1:8080/checkout/ps_01JDK6Z3Q0F8D5N2M1X7Y4V9T6.b7Qm2X9vLr4KcT8yNw3ZpH6sJd1FgA5e",
      expiresAt: timestampFromMs(nowMs + HOUR_MS),
      createdAt: timestampFromMs(nowMs),
      checkoutExpiresAt: timestampFromMs(nowMs + HOUR_MS),
    },
  });
}
