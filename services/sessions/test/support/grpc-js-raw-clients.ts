import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

const PROTO_ROOT = fileURLToPath(new URL("../../../../proto", import.meta.url));

type CallbackCall = (
  request: unknown,
  metadata: grpc.Metadata,
  callback: (err: grpc.ServiceError | null, response: unknown) => void,
) => void;
type ClientConstructor = new (
  address: string,
  credentials: grpc.ChannelCredentials,
) => grpc.Client & Record<string, CallbackCall>;
type ReflectionClient = grpc.Client & {
  ServerReflectionInfo(): grpc.ClientDuplexStream<unknown, ReflectionResponse>;
};

export interface ReflectionResponse {
  listServicesResponse?: { service: Array<{ name: string }> };
  fileDescriptorResponse?: { fileDescriptorProto: Buffer[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

function load(files: string[]) {
  return grpc.loadPackageDefinition(
    protoLoader.loadSync(
      files.map((f) => `${PROTO_ROOT}/${f}`),
      { includeDirs: [PROTO_ROOT], keepCase: false, defaults: true, enums: String, longs: String },
    ),
  ) as unknown as {
    gateway: { sessions: { v1: { SessionService: ClientConstructor } } };
    grpc: {
      health: { v1: { Health: ClientConstructor } };
      reflection: {
        v1: { ServerReflection: new (a: string, c: grpc.ChannelCredentials) => ReflectionClient };
      };
    };
  };
}

/**
 * A third-party view of the sessions service: grpc-js clients built from the .proto files at
 * run time, sending whatever `authorization` metadata the test chooses (or none).
 */
export function createRawSessionsClients(address: string) {
  const loaded = load([
    "gateway/sessions/v1/sessions.proto",
    "grpc/health/v1/health.proto",
    "grpc/reflection/v1/reflection.proto",
  ]);
  const insecure = grpc.credentials.createInsecure();
  const sessions = new loaded.gateway.sessions.v1.SessionService(address, insecure);
  const health = new loaded.grpc.health.v1.Health(address, insecure);
  const reflection = new loaded.grpc.reflection.v1.ServerReflection(address, insecure);
  const call = (
    client: grpc.Client & Record<string, CallbackCall>,
    method: string,
    request: unknown,
    token?: string,
  ) =>
    new Promise<unknown>((resolve, reject) => {
      const metadata = new grpc.Metadata();
      if (token !== undefined) metadata.set("authorization", `Bearer ${token}`);
      client[method]!.call(client, request, metadata, (err, response) =>
        err ? reject(err) : resolve(response),
      );
    });
  return {
    sessions: (method: string, request: unknown, token?: string) => call(sessions, method, request, token),
    health: (request: { service: string }) => call(health, "Check", request) as Promise<{ status: string }>,
    /** Sends each request on one reflection stream and collects the answers in order. */
    reflect(requests: unknown[]): Promise<ReflectionResponse[]> {
      return new Promise((resolve, reject) => {
        const stream = reflection.ServerReflectionInfo();
        const answers: ReflectionResponse[] = [];
        stream.on("data", (answer: ReflectionResponse) => {
          answers.push(answer);
          if (answers.length === requests.length) stream.end();
        });
        stream.on("error", reject);
        stream.on("end", () => resolve(answers));
        for (const r of requests) stream.write(r);
      });
    },
    close() {
      sessions.close();
      health.close();
      reflection.close();
    },
  };
}

/** The gRPC status a call rejected with (the test fails if it resolved). */
export async function grpcStatusOf(call: Promise<unknown>): Promise<grpc.status> {
  const outcome = await call.then(
    () => undefined,
    (err: grpc.ServiceError) => err,
  );
  if (!outcome) throw new Error("expected the call to be refused");
  return outcome.code;
}
