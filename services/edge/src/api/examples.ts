/** Examples for the OpenAPI document: what a merchant sends and gets back, as real answers look. */
export const createSessionExample = {
  merchant_reference: "order-1042",
  amount: "125.500",
  currency: "TND",
  order_id: "A-1042",
  description: "Two books",
  items: [{ name: "Book", quantity: 2, unit_price: "62.750", description: "Paperback" }],
  buyer_email: "buyer@example.com",
  metadata: { cart: "c-77", channel: "web" },
  return_url: "https://shop.example/orders/1042/paid",
  cancel_url: "https://shop.example/cart",
  webhook_url: "https://shop.example/hooks/gateway",
};

export const sessionExample = {
  id: "ps_8f2c1a9b4d7e6f30a1b2c3d4",
  merchant_reference: "order-1042",
  order_number: "SHOP-7K2M9Q",
  order_id: "A-1042",
  amount: "125.500",
  currency: "TND",
  original: { amount: "125.500", currency: "TND", rate: "1.000000" },
  description: "Two books",
  items: [{ name: "Book", quantity: 2, unit_price: "62.750", description: "Paperback" }],
  status: "CREATED",
  livemode: false,
  buyer_first_name: null,
  buyer_last_name: null,
  buyer_email: "buyer@example.com",
  buyer_phone: null,
  metadata: { cart: "c-77", channel: "web" },
  return_url: "https://shop.example/orders/1042/paid",
  cancel_url: "https://shop.example/cart",
  webhook_url: "https://shop.example/hooks/gateway",
  max_attempts: 3,
  checkout_url: "https://pay.example.tn/checkout/Xq3v9LmT2kPz8RwY4nJc6bHd",
  expires_at: "2026-11-24T10:15:00.000Z",
  completed_at: null,
  created_at: "2026-11-23T10:15:00.000Z",
  attempts: [],
};

export const canceledSessionExample = {
  ...sessionExample,
  status: "CANCELED",
  checkout_url: null,
  completed_at: "2026-11-23T10:20:00.000Z",
};

export const sessionListExample = {
  data: [sessionExample],
  has_more: true,
  next_cursor: "ps_8f2c1a9b4d7e6f30a1b2c3d4",
};

export const checkoutLinkExample = {
  checkout_url: "https://pay.example.tn/checkout/Rt5w2NqX8vLm3KpZ7yBc4dFg",
  expires_at: "2026-11-23T10:45:00.000Z",
};

export const createRefundExample = { refund_type: "PARTIAL", amount: "20.000", reason: "returned goods" };

export const refundResultExample = {
  refund_id: "re_3c9d2e7a1b4f6a8c0d2e4f6a",
  refunded_amount: "20.000",
  automated_refund: true,
};

/** A resend: a new attempt of the same event, due now. */
export const resentDeliveryExample = {
  id: "whd_7c9e1b3d5f7a9c1e3b5d7f9a",
  session_id: "ps_8f2c1a9b4d7e6f30a1b2c3d4",
  event: "session.succeeded",
  event_id: "evt_2b4d6f8a0c2e4a6c8e0b2d4f",
  url: "https://shop.example/hooks/gateway",
  attempt_number: 2,
  status: "PENDING",
  http_status_code: null,
  response_time_ms: null,
  error_message: null,
  next_retry_at: null,
  created_at: "2026-11-23T11:02:40.000Z",
};

export const deliveryListExample = {
  data: [
    {
      id: "whd_5a7c9e1b3d5f7a9c1e3b5d7f",
      session_id: "ps_8f2c1a9b4d7e6f30a1b2c3d4",
      event: "session.succeeded",
      event_id: "evt_2b4d6f8a0c2e4a6c8e0b2d4f",
      url: "https://shop.example/hooks/gateway",
      attempt_number: 1,
      status: "SUCCEEDED",
      http_status_code: 200,
      response_time_ms: 84,
      error_message: null,
      next_retry_at: null,
      created_at: "2026-11-23T10:17:02.000Z",
    },
  ],
  has_more: false,
  next_cursor: null,
};

export const eventStreamExample =
  ': connected\n\nid: evt_5c1d2e3f4a5b6c7d8e9f0a1b\nevent: session.succeeded\ndata: {"id":"evt_5c1d2e3f4a5b6c7d8e9f0a1b","event":"session.succeeded","created_at":"2026-11-23T10:15:00Z","data":{"id":"ps_8f2c1a9b4d7e6f30a1b2c3d4","status":"SUCCEEDED"}}\n\n';
