export * from "./caller-permissions.js";
export * from "./service-auth-interceptors.js";
export * from "./service-auth-keys.js";
export * from "./service-names.js";
export * from "./service-token.js";
export * from "./service-transport.js";
