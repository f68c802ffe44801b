import { create, type DescMethodUnary, isMessage } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ContextValues,
  createContextValues,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { CallSignal } from "./call-signal.js";

/** The client side of a unary call: its interceptors, then whatever carries the call. */
export type UnaryFn = (req: UnaryRequest) => Promise<UnaryResponse>;

/**
 * Runs one unary call as a client transport does: the request built from the call's arguments
 * and handed to `chain`, then the call's signal ended with the outcome. As Connect's
 * runUnaryCall, a call that was cancelled or ran out of time fails with that reason, whatever
 * came back meanwhile.
 */
export async function runClientUnaryCall(
  chain: UnaryFn,
  call: CallSignal,
  method: DescMethodUnary,
  url: string,
  header: Headers,
  input: unknown,
  contextValues: ContextValues | undefined,
): Promise<UnaryResponse> {
  try {
    const response = await chain({
      stream: false,
      service: method.parent,
      method,
      requestMethod: "POST",
      url,
      header,
      contextValues: contextValues ?? createContextValues(),
      message: isMessage(input, method.input) ? input : create(method.input, input as never),
      signal: call.signal,
    } as UnaryRequest);
    call.end();
    return response;
  } catch (err) {
    const failure = call.signal.aborted
      ? ConnectError.from(call.signal.reason, Code.Canceled)
      : ConnectError.from(err);
    call.end(failure);
    throw failure;
  }
}
