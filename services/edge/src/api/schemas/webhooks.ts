import { Type } from "@sinclair/typebox";
import { NullableString, pageOf, QueryString, Timestamp } from "./common.js";

export const Delivery = Type.Object(
  {
    id: Type.String(),
    session_id: Type.String(),
    event: Type.String(),
    event_id: NullableString(),
    url: NullableString(),
    attempt_number: Type.Integer(),
    status: NullableString(),
    http_status_code: Type.Union([Type.Integer(), Type.Null()]),
    response_time_ms: Type.Union([Type.Integer(), Type.Null()]),
    error_message: NullableString(),
    next_retry_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

export const DeliveryList = pageOf(Delivery);

export const DeliveryIdParams = Type.Object(
  {
    delivery_id: Type.String({
      description: "A delivery's id (`whd_…`), from the delivery history.",
      examples: ["whd_5a7c9e1b3d5f7a9c1e3b5d7f"],
    }),
  },
  { additionalProperties: false },
);

const common = {
  limit: QueryString("1 to 100; 20 when absent."),
  starting_after: QueryString("The `next_cursor` of the previous page."),
  status: QueryString("Only deliveries in this status."),
  event: QueryString("Only this event type."),
  event_id: QueryString("Only deliveries of this event."),
};
// Unknown names and the values' meaning are judged by the deliveries mapping, all together.
const options = { additionalProperties: true } as const;

export const SessionDeliveriesQuery = Type.Object(common, options);
export const AccountDeliveriesQuery = Type.Object(
  { ...common, session_id: QueryString("Only this session's deliveries.") },
  options,
);

/** The text/event-stream of docs/api/webhooks.md#listening-on-a-laptop. */
export const EventStream = Type.String({
  description:
    "Server-sent events: `id: <event id>`, `event: <event type>`, then the webhook body on `data:` lines, each event ended by a blank line; `: connected` and `: ping` comments.",
});
