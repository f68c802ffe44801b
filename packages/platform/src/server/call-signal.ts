import { getEventListeners } from "node:events";
import { Code, ConnectError } from "@connectrpc/connect";

/** Why a call's signal is aborted once it has answered. One shared reason: building an
 * exception (with its stack) for every call showed in CPU profiles under load. */
const CALL_ENDED = new ConnectError("the call has ended", Code.Canceled);

/** The signal both ends of one in-process call share, and how the call ends it. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** Neither a caller's signal nor a deadline: nothing aborts the call before it answers. */
  readonly endsOnlyByAnswer: boolean;
  /** The call is over: whatever still waits on its signal is told, with `reason`. */
  end(reason?: unknown): void;
  /** Aborts the signal now, while the call runs (a deadline, a caller gone); `end` still follows. */
  abort(reason: unknown): void;
}

/** Idle signals kept at most: about as many as calls in flight at once under load. */
export const MAX_IDLE_SIGNALS = 64;
/** Calls one signal serves at most before it is retired (aborted and dropped). */
export const MAX_SIGNAL_USES = 256;

interface Reusable {
  readonly controller: AbortController;
  uses: number;
}

const idle: Reusable[] = [];
/** Every pooled signal: nothing aborts one before its call ends. */
const pooled = new WeakSet<AbortSignal>();

/**
 * Whether anything can abort `signal` while its call is in flight: false for the pooled signals of
 * calls that end only by answering, so a transport need not watch them. Watching costs more than
 * it looks: on Node 20 an abort listener added and removed per call left about 5 KB of each call
 * in the old generation (docs/decisions.md#calls-between-services-skip-connects-client-machinery).
 */
export function mayAbortBeforeAnswer(signal: AbortSignal): boolean {
  return !pooled.has(signal);
}

/**
 * A call with no caller signal and no deadline can only end by answering. Its signal comes from a
 * pool, and goes back to it if nothing waits on it when the call ends; if something does, it is
 * aborted as every call's signal is, and dropped. On Node 20 every AbortSignal gets its own hidden
 * class, which V8 keeps in the old generation, so one per call filled it with garbage
 * (docs/decisions.md#in-process-call-signals-are-reused).
 */
function answerOnlyCall(): CallSignal {
  let entry = idle.pop();
  if (!entry) {
    entry = { controller: new AbortController(), uses: 0 };
    pooled.add(entry.controller.signal);
  }
  entry.uses += 1;
  return {
    signal: entry.controller.signal,
    endsOnlyByAnswer: true,
    end(reason: unknown = CALL_ENDED) {
      if (entry.controller.signal.aborted) return;
      const waitedOn = getEventListeners(entry.controller.signal, "abort").length > 0;
      if (waitedOn || entry.uses >= MAX_SIGNAL_USES || idle.length >= MAX_IDLE_SIGNALS) {
        entry.controller.abort(reason);
      } else {
        idle.push(entry);
      }
    },
    // An aborted signal never goes back to the pool: `end` finds it aborted and drops it.
    abort(reason: unknown) {
      if (!entry.controller.signal.aborted) entry.controller.abort(reason);
    },
  };
}

/**
 * One in-process call's signal: aborted when the caller's `parent` signal aborts (CANCELED), when
 * `timeoutMs` passes (DEADLINE_EXCEEDED), or by `end` when the call is over. One controller and
 * at most one timer per call, where Connect's runUnaryCall and createHandlerContext build four
 * controllers, two timers and two exceptions.
 */
export function callSignal(parent: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  if (parent === undefined && timeoutMs === undefined) return answerOnlyCall();
  const controller = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const deadlineExceeded = () => abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  let timer: NodeJS.Timeout | undefined;
  if (timeoutMs !== undefined && timeoutMs <= 0) deadlineExceeded();
  else if (timeoutMs !== undefined) timer = setTimeout(deadlineExceeded, timeoutMs);
  const onParentAbort = () => abort(ConnectError.from(parent?.reason, Code.Canceled));
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    endsOnlyByAnswer: false,
    end(reason: unknown = CALL_ENDED) {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
      abort(reason);
    },
    abort,
  };
}

const NO_DEADLINE = (): undefined => undefined;

/** A handler's `timeoutMs()`: what is left of a deadline `timeoutMs` from now, as over the network. */
export function remainingTimeOf(timeoutMs: number | undefined): () => number | undefined {
  if (timeoutMs === undefined) return NO_DEADLINE;
  const deadline = Date.now() + timeoutMs;
  return () => deadline - Date.now();
}
