// Names for the generated schema types, so callers never spell `components["schemas"][…]`.
import type { components, operations } from "./generated/openapi.js";

type Schemas = components["schemas"];
export type Session = Schemas["Session"];
export type SessionList = Schemas["SessionList"];
export type CreateSessionParams = Schemas["CreateSessionBody"];
export type LineItemInput = Schemas["LineItemInput"];
export type CheckoutLink = Schemas["CheckoutLink"];
export type CreateRefundParams = Schemas["CreateRefundBody"];
export type RefundResult = Schemas["RefundResult"];
export type Delivery = Schemas["Delivery"];
export type DeliveryList = Schemas["DeliveryList"];
export type SessionListQuery = NonNullable<operations["listSessions"]["parameters"]["query"]>;
export type SessionDeliveriesQuery = NonNullable<operations["listSessionDeliveries"]["parameters"]["query"]>;
export type DeliveryListQuery = NonNullable<operations["listDeliveries"]["parameters"]["query"]>;
