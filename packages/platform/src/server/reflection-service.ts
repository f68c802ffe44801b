import { create, type DescFile, type DescMessage, type DescService, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ServiceImpl } from "@connectrpc/connect";
import {
  type ServerReflection,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
  ServerReflectionResponseSchema,
} from "@gateway/proto";

/** Every proto file a set of services needs, the services' own files first, then their imports. */
function filesOf(services: readonly DescService[]): DescFile[] {
  const seen = new Map<string, DescFile>();
  const visit = (file: DescFile) => {
    if (seen.has(file.proto.name)) return;
    seen.set(file.proto.name, file);
    for (const dep of file.dependencies) visit(dep);
  };
  for (const service of services) visit(service.file);
  return [...seen.values()];
}

/** Fully-qualified symbol -> the file that declares it (messages, enums, services, methods, extensions). */
function symbolIndex(files: readonly DescFile[]): Map<string, DescFile> {
  const index = new Map<string, DescFile>();
  const addMessage = (file: DescFile, message: DescMessage) => {
    index.set(message.typeName, file);
    for (const nested of message.nestedMessages) addMessage(file, nested);
    for (const nested of message.nestedEnums) index.set(nested.typeName, file);
    for (const ext of message.nestedExtensions) index.set(ext.typeName, file);
  };
  for (const file of files) {
    for (const message of file.messages) addMessage(file, message);
    for (const e of file.enums) index.set(e.typeName, file);
    for (const ext of file.extensions) index.set(ext.typeName, file);
    for (const service of file.services) {
      index.set(service.typeName, file);
      for (const method of service.methods) index.set(`${service.typeName}.${method.name}`, file);
    }
  }
  return index;
}

/**
 * The standard `grpc.reflection.v1.ServerReflection` service over the services a server
 * hosts, answered from the descriptors embedded in the generated code. A file is sent with
 * its transitive imports, as grpcurl and `buf curl` expect.
 */
export function createReflectionService(
  services: () => readonly DescService[],
): ServiceImpl<typeof ServerReflection> {
  const answer = (req: ServerReflectionRequest): ServerReflectionResponse["messageResponse"] => {
    const hosted = services();
    const files = filesOf(hosted);
    const byName = new Map(files.map((f) => [f.proto.name, f]));
    const withImports = (file: DescFile | undefined): ServerReflectionResponse["messageResponse"] => {
      if (!file)
        return {
          case: "errorResponse",
          value: {
            $typeName: "grpc.reflection.v1.ErrorResponse",
            errorCode: Code.NotFound,
            errorMessage: "not found",
          },
        };
      return {
        case: "fileDescriptorResponse",
        value: { $typeName: "grpc.reflection.v1.FileDescriptorResponse", fileDescriptorProto: collect(file) },
      };
    };
    const request = req.messageRequest;
    switch (request.case) {
      case "listServices":
        return {
          case: "listServicesResponse",
          value: {
            $typeName: "grpc.reflection.v1.ListServiceResponse",
            service: hosted.map((s) => ({
              $typeName: "grpc.reflection.v1.ServiceResponse",
              name: s.typeName,
            })),
          },
        };
      case "fileByFilename":
        return withImports(byName.get(request.value));
      case "fileContainingSymbol":
        return withImports(symbolIndex(files).get(request.value));
      case "fileContainingExtension":
      case "allExtensionNumbersOfType":
        // Our protos declare no extensions.
        return withImports(undefined);
      default:
        return {
          case: "errorResponse",
          value: {
            $typeName: "grpc.reflection.v1.ErrorResponse",
            errorCode: Code.InvalidArgument,
            errorMessage: "unknown request",
          },
        };
    }
  };
  return {
    async *serverReflectionInfo(requests) {
      for await (const req of requests) {
        yield create(ServerReflectionResponseSchema, {
          validHost: req.host,
          originalRequest: req,
          messageResponse: answer(req),
        });
      }
    },
  };
}

/** The file and its transitive imports, serialized. */
function collect(file: DescFile): Uint8Array[] {
  const out: Uint8Array[] = [];
  const seen = new Set<string>();
  const visit = (f: DescFile) => {
    if (seen.has(f.proto.name)) return;
    seen.add(f.proto.name);
    out.push(toBinary(FileDescriptorProtoSchema, f.proto));
    for (const dep of f.dependencies) visit(dep);
  };
  visit(file);
  return out;
}
