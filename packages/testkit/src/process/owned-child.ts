import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

/**
 * A child process that must not outlive this process. Two guards, because neither is enough alone:
 * - an `exit` hook SIGKILLs every live child when this process exits normally (or via
 *   process.exit); Node does not run it when a signal or SIGKILL ends the process;
 * - pipes from this process that the kernel closes when this process dies for any reason.
 *   Every child gets a tiny watchdog shell holding one as its stdin: when `read` returns, the
 *   watchdog SIGKILLs the child, at once for the Go servers (FerretDB, nats-server), after a
 *   grace for our Node services, which get a second pipe as fd 3, watch it themselves
 *   (`watchParentPipe`) and shut down within their own deadline; the watchdog covers a child
 *   whose event loop is stuck. The watchdog ignores INT, TERM, HUP and QUIT, so a Ctrl-C sent
 *   to the whole terminal process group cannot remove it while the child lives on.
 */
export interface OwnedChild {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it) once the child has exited. */
  readonly exited: Promise<number | null>;
  hasExited(): boolean;
  /** SIGTERM, then SIGKILL when it has not exited after `graceMs`. Resolves once exited. */
  terminate(graceMs: number): Promise<void>;
  /** SIGKILL. Resolves once exited. */
  kill(): Promise<void>;
}

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of liveChildren) signalQuietly(child, "SIGKILL");
  });
}

/** Spawns `command`; rejects when it cannot be started at all (missing binary, not executable). */
export interface OwnedChildOptions extends SpawnOptions {
  /** A directory the reaper deletes after killing the child when this process dies abruptly. */
  removeOnParentDeath?: string;
  /**
   * When the child also watches the pipe at stdio index 3 itself (the caller puts "pipe" there,
   * our Node services shut down when it closes), how long the reaper lets it do so before
   * SIGKILL. Absent: no such pipe, the reaper kills at once.
   */
  childWatchesPipeGraceMs?: number;
}

export async function spawnOwnedChild(
  command: string,
  args: readonly string[],
  options: OwnedChildOptions,
): Promise<OwnedChild> {
  installExitHook();
  const { removeOnParentDeath, childWatchesPipeGraceMs, ...spawnOptions } = options;
  const child = spawn(command, args, spawnOptions);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (err) =>
      reject(new Error(`could not start ${command}: ${err.message}`, { cause: err })),
    );
  });
  // Later errors (a failed kill) must not crash the process: the exit is observed via "close".
  child.on("error", () => {});
  const pid = child.pid as number; // Set once "spawn" has fired.
  liveChildren.add(child);
  const reaper = startReaper(pid, removeOnParentDeath, childWatchesPipeGraceMs ?? 0);
  if (childWatchesPipeGraceMs !== undefined) holdParentPipe(child);

  let done = false;
  // "close" rather than "exit": it fires after stdout/stderr are drained, so captured logs are complete.
  const exited = new Promise<number | null>((resolve) => {
    child.once("close", (code) => {
      done = true;
      liveChildren.delete(child);
      stopReaper(reaper);
      resolve(code);
    });
  });

  return {
    pid,
    process: child,
    exited,
    hasExited: () => done,
    async terminate(graceMs: number): Promise<void> {
      if (done) return;
      signalQuietly(child, "SIGTERM");
      const timer = setTimeout(() => signalQuietly(child, "SIGKILL"), graceMs);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    async kill(): Promise<void> {
      if (done) return;
      signalQuietly(child, "SIGKILL");
      await exited;
    },
  };
}

function signalQuietly(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    child.kill(signal);
  } catch {
    // Exited between the check and the signal: nothing left to stop.
  }
}

// $1 pid, $2 directory to remove, $3 seconds of grace. The start time (field 22 of
// /proc/<pid>/stat) is checked again before the kill, so a pid reused during the grace is spared.
const REAPER_SCRIPT = [
  "trap '' INT TERM HUP QUIT",
  'started() { cut -d " " -f 22 "/proc/$1/stat" 2>/dev/null; }',
  'birth=$(started "$1")',
  "read -r _ || true",
  'if [ "$3" != 0 ]; then sleep "$3"; fi',
  'if [ "$(started "$1")" = "$birth" ]; then kill -KILL "$1" 2>/dev/null; fi',
  'if [ -n "$2" ]; then rm -rf -- "$2"; fi',
].join("; ");

/** Our end of the child's fd 3: kept open (never written) until this process dies; never keeps it alive. */
function holdParentPipe(child: ChildProcess): void {
  const pipe = child.stdio[3] as
    | (NodeJS.ReadableStream & { unref?: () => void; on: ChildProcess["on"] })
    | null
    | undefined;
  if (!pipe) throw new Error("parentDeath 'child-watches' needs stdio[3] to be 'pipe'");
  pipe.on("error", () => {});
  pipe.unref?.();
}

function startReaper(pid: number, removeDir: string | undefined, graceMs: number): ChildProcess {
  const graceSeconds = String(Math.ceil(graceMs / 1000));
  const reaper = spawn(
    "/bin/sh",
    ["-c", REAPER_SCRIPT, "gateway-reaper", String(pid), removeDir ?? "", graceSeconds],
    {
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  // Without /bin/sh the exit hook still covers normal exits.
  reaper.on("error", () => {});
  // The reaper and its pipe must never keep this process alive.
  reaper.unref();
  (reaper.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return reaper;
}

function stopReaper(reaper: ChildProcess): void {
  // SIGKILL rather than closing its stdin: closing would make it kill a pid that may be reused by now.
  if (reaper.exitCode === null && reaper.signalCode === null) signalQuietly(reaper, "SIGKILL");
}
