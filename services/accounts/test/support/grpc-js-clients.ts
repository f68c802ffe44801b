import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { expect } from "vitest";

const PROTO_ROOT = fileURLToPath(new URL("../../../../proto", import.meta.url));

/** A unary call of a grpc-js client, as a promise. */
export type UnaryCall<Req, Res> = (request: Req) => Promise<Res>;

export interface GrpcJsClients {
  authenticate: UnaryCall<
    { apiKey: string },
    { scope?: { merchantId: string; livemode: boolean }; keyId: string }
  >;
  setTerminal: UnaryCall<
    {
      merchantId: string;
      livemode: boolean;
      baseUrl: string;
      username: string;
      password: string;
      active: boolean;
    },
    {
      terminal?: {
        merchantId: string;
        livemode: boolean;
        baseUrl: string;
        username: string;
        active: boolean;
      } & Record<string, unknown>;
    }
  >;
  resolveTerminalCredentials: UnaryCall<
    { scope: { merchantId: string; livemode: boolean } },
    { baseUrl: string; username: string; password: string }
  >;
  healthCheck: UnaryCall<{ service: string }, { status: string }>;
  close(): void;
}

type CallbackCall = (
  request: unknown,
  callback: (err: grpc.ServiceError | null, response: unknown) => void,
) => void;
type ClientConstructor = new (
  address: string,
  credentials: grpc.ChannelCredentials,
) => grpc.Client & Record<string, CallbackCall>;

type MetadataCall = (
  request: unknown,
  metadata: grpc.Metadata,
  callback: (err: grpc.ServiceError | null, response: unknown) => void,
) => void;

/** `authorization` for each call when a token source is given (a process checks service tokens). */
function promisify<Req, Res>(
  client: grpc.Client & Record<string, CallbackCall>,
  method: string,
  token?: () => string,
): UnaryCall<Req, Res> {
  return (request) =>
    new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      if (token) metadata.set("authorization", `Bearer ${token()}`);
      (client[method] as unknown as MetadataCall).call(client, request, metadata, (err, response) =>
        err ? reject(err) : resolve(response as Res),
      );
    });
}

/**
 * Plain grpc-js clients built from the .proto files at run time (no generated code), i.e. how
 * a third-party gRPC client would see the service. google/protobuf/timestamp.proto is not in
 * proto/: protobufjs (under proto-loader) ships the well-known types and resolves it itself.
 */
export function createGrpcJsClients(address: string, options: { token?: () => string } = {}): GrpcJsClients {
  const definition = protoLoader.loadSync(
    [`${PROTO_ROOT}/gateway/accounts/v1/accounts.proto`, `${PROTO_ROOT}/grpc/health/v1/health.proto`],
    { includeDirs: [PROTO_ROOT], keepCase: false, defaults: true, enums: String, longs: String },
  );
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    gateway: { accounts: { v1: { AccountsService: ClientConstructor } } };
    grpc: { health: { v1: { Health: ClientConstructor } } };
  };
  const accounts = new loaded.gateway.accounts.v1.AccountsService(address, grpc.credentials.createInsecure());
  const health = new loaded.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  return {
    authenticate: promisify(accounts, "Authenticate", options.token),
    setTerminal: promisify(accounts, "SetTerminal", options.token),
    resolveTerminalCredentials: promisify(accounts, "ResolveTerminalCredentials", options.token),
    healthCheck: promisify(health, "Check"),
    close() {
      accounts.close();
      health.close();
    },
  };
}

/** The error a grpc-js call rejects with (the test fails if it resolves). */
export async function grpcErrorOf(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as grpc.ServiceError;
}
