// Public surface of the generated protobuf code. Generated files live in ./gen and are
// never edited by hand: change proto/ and run `npm run generate`.

export * from "./gen/gateway/accounts/v1/accounts_pb.js";
export * from "./gen/gateway/accounts/v1/api_keys_pb.js";
export * from "./gen/gateway/accounts/v1/audit_log_pb.js";
export * from "./gen/gateway/accounts/v1/business_verification_pb.js";
export * from "./gen/gateway/accounts/v1/dashboard_users_pb.js";
export * from "./gen/gateway/accounts/v1/exchange_rates_pb.js";
export * from "./gen/gateway/common/v1/common_pb.js";
export * from "./gen/gateway/events/v1/events_pb.js";
export * from "./gen/gateway/refunds/v1/refunds_pb.js";
export * from "./gen/gateway/refunds/v1/session_refunds_pb.js";
export * from "./gen/gateway/sessions/v1/sessions_pb.js";
export * from "./gen/gateway/webhooks/v1/endpoints_pb.js";
export * from "./gen/gateway/webhooks/v1/webhooks_pb.js";
export * from "./gen/grpc/health/v1/health_pb.js";
export * from "./gen/grpc/reflection/v1/reflection_pb.js";
