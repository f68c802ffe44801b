import type { DescMethod, DescService } from "@bufbuild/protobuf";
import {
  type ConnectRouter,
  createMethodImplSpec,
  createServiceImplSpec,
  type MethodImplSpec,
} from "@connectrpc/connect";

/** The unary methods `routes` registers, by method, as Connect's router would serve them. */
export function unaryMethodsOf(routes: (router: ConnectRouter) => void): Map<DescMethod, MethodImplSpec> {
  const specs = new Map<DescMethod, MethodImplSpec>();
  const recorder = {
    handlers: [],
    service(service: DescService, implementation: object) {
      const spec = createServiceImplSpec(service, implementation as never);
      for (const method of Object.values(spec.methods)) specs.set(method.method, method);
      return recorder;
    },
    rpc(method: DescMethod, impl: never) {
      specs.set(method, createMethodImplSpec(method as never, impl) as MethodImplSpec);
      return recorder;
    },
  };
  routes(recorder as unknown as ConnectRouter);
  return specs;
}
