import { launcherEntries } from "./service-entries.js";

/**
 * Node's arguments for every gateway process: each distributed service the launcher starts, the
 * embedded gateway, and the production image's entrypoint (deploy/k8s/Dockerfile).
 *
 * `--no-allocation-site-pretenuring`: V8 otherwise learns which allocation sites make objects
 * that survive and then allocates every object of those sites straight into the old generation.
 * A request's objects die with the request, so a site it learns under load fills the old
 * generation with garbage (the edge at 0.3 to 6 MB/s at 440 creates/s, one run to the next), and
 * each major collection that follows holds requests up for tens of milliseconds
 * (docs/decisions.md#every-gateway-process-runs-without-allocation-site-pretenuring). V8 reads
 * the flag from the command line; Node refuses it in NODE_OPTIONS.
 */
export const GATEWAY_NODE_ARGS: readonly string[] = ["--no-allocation-site-pretenuring"];

/**
 * Node's arguments for a distributed service: each one the launcher starts and the production
 * image's entrypoint (deploy/k8s/Dockerfile). The gateway's, and:
 *
 * `--heap-growing-percent=300`: after a major collection the old generation may grow to four
 * times what it kept (V8's own ceiling) before the next one. On Node 24, V8 schedules marking
 * whenever the old generation's room left is no more than the young generation, which there grows
 * to 64 MB; a service keeping about 40 MB, grown two or three times by V8's own choice, hardly had
 * more, so the sessions service ran a major collection every 3 to 5 s under load, each pausing it
 * for 6 to 15 ms, while its old generation did not grow at all
 * (docs/decisions.md#distributed-services-let-their-heap-grow-four-times).
 *
 * `--no-concurrent-marking`: V8 marks in small steps on the main thread instead of on four helper
 * threads beside it. Under load the helpers took the cores other processes' requests waited for:
 * each of the sessions service's major collections stalled creates for up to 164 ms around a
 * pause of 7 to 14 ms. Without them its young generation also stayed smaller, and it ran no major
 * collection under 500 creates/s after its first second
 * (docs/decisions.md#distributed-services-mark-on-their-main-thread).
 */
export const SERVICE_NODE_ARGS: readonly string[] = [
  ...GATEWAY_NODE_ARGS,
  "--heap-growing-percent=300",
  "--no-concurrent-marking",
];

/**
 * Node's arguments for an embedded gateway process (`npm start`, and every process started with
 * `embeddedLaunch`): the gateway's, and the old generation may grow past what the last major
 * collection kept by as much again before the next one, as Go's default (GOGC=100). Left to
 * itself, V8 let the embedded gateway's heap grow by about a tenth between major collections,
 * and each one, over the sessions kept in memory, held requests up for tens of milliseconds
 * (docs/decisions.md#embedded-mode-lets-its-heap-grow). V8 reads the flag only from the command
 * line: set after start, it did not take effect. Distributed services go without it: their small
 * heaps already grow further between collections, and the flag's fixed doubling made the edge
 * collect three times as often (same decision).
 *
 * `--no-memory-reducer`: V8 otherwise runs a major collection of its own to shrink a heap that
 * has stopped growing. In embedded mode the heap is the store of every session, and that
 * collection, about 100 s after creates stopped, paused checkout pages for 125 ms and left them
 * late for up to 700 ms, the longest stall a minute of pages met
 * (docs/decisions.md#embedded-mode-runs-without-v8s-memory-reducer). Collections the heap's
 * growth calls for still run.
 */
export const EMBEDDED_NODE_ARGS: readonly string[] = [
  ...GATEWAY_NODE_ARGS,
  "--heap-growing-percent=100",
  "--no-memory-reducer",
];

/**
 * How an embedded gateway process is started: its entry with node's arguments for it. Spread into
 * `startProcess`'s options, so the arguments cannot be left behind.
 */
export const embeddedLaunch = { entry: launcherEntries.embedded, nodeArgs: EMBEDDED_NODE_ARGS } as const;
