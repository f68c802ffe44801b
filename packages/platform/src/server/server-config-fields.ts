import { parse } from "../config/read-config.js";

/** GATEWAY_GRPC_REFLECTION: off by default; reflection describes the API to grpcurl and `buf curl`. */
export const grpcReflectionField = {
  env: "GATEWAY_GRPC_REFLECTION",
  description: "serve gRPC server reflection (grpc.reflection.v1), so grpcurl and `buf curl` need no proto files; calls still need service credentials",
  default: "false",
  parse: parse.boolean,
};
