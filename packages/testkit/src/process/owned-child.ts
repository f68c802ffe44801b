import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/**
 * A child process that must not outlive this process. Two guards, because neither is enough alone:
 * - an `exit` hook SIGKILLs every live child when this process exits normally (or via
 *   process.exit); Node does not run it when a signal or SIGKILL ends the process;
 * - a pipe from this process that the kernel closes when this process dies for any reason.
 *   A child that watches such a pipe itself (our Node services: `watchParentPipe`) gets it as
 *   fd 3 and shuts down, bounded, when it closes. A child that cannot (FerretDB, nats-server)
 *   gets a tiny watchdog shell holding the pipe as its stdin: when `read` returns, the watchdog
 *   SIGKILLs the child. The watchdog ignores INT, TERM, HUP and QUIT, so a Ctrl-C sent to the
 *   whole terminal process group cannot remove it while the child lives on.
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
   * `watchdog` (default): a reaper shell kills the child when this process dies.
   * `child-watches`: the child watches the pipe at stdio index 3 itself (the caller puts "pipe" there).
   */
  parentDeath?: "watchdog" | "child-watches";
}

export async function spawnOwnedChild(command: string, args: readonly string[], options: OwnedChildOptions): Promise<OwnedChild> {
  installExitHook();
  const { removeOnParentDeath, parentDeath = "watchdog", ...spawnOptions } = options;
  const child = spawn(command, args, spawnOptions);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (err) => reject(new Error(`could not start ${command}: ${err.message}`, { cause: err })));
  });
  // Later errors (a failed kill) must not crash the process: the exit is observed via "close".
  child.on("error", () => {});
  const pid = child.pid as number; // Set once "spawn" has fired.
  liveChildren.add(child);
  const reaper = parentDeath === "watchdog" ? startReaper(pid, removeOnParentDeath) : undefined;
  if (parentDeath === "child-watches") holdParentPipe(child);

  let done = false;
  // "close" rather than "exit": it fires after stdout/stderr are drained, so captured logs are complete.
  const exited = new Promise<number | null>((resolve) => {
    child.once("close", (code) => {
      done = true;
      liveChildren.delete(child);
      if (reaper) stopReaper(reaper);
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

const REAPER_SCRIPT = `trap '' INT TERM HUP QUIT; read -r _ || true; kill -KILL "$1" 2>/dev/null; if [ -n "$2" ]; then rm -rf -- "$2"; fi`;

/** Our end of the child's fd 3: kept open (never written) until this process dies; never keeps it alive. */
function holdParentPipe(child: ChildProcess): void {
  const pipe = child.stdio[3] as (NodeJS.ReadableStream & { unref?: () => void; on: ChildProcess["on"] }) | null | undefined;
  if (!pipe) throw new Error("parentDeath 'child-watches' needs stdio[3] to be 'pipe'");
  pipe.on("error", () => {});
  pipe.unref?.();
}

function startReaper(pid: number, removeDir: string | undefined): ChildProcess {
  const reaper = spawn("/bin/sh", ["-c", REAPER_SCRIPT, "gateway-reaper", String(pid), removeDir ?? ""], {
    stdio: ["pipe", "ignore", "ignore"],
  });
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
