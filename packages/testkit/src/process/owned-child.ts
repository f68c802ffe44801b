import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/**
 * A child process that must not outlive this process. Two guards, because neither is enough alone:
 * - an `exit` hook SIGKILLs every live child when this process exits normally (or via
 *   process.exit); Node does not run it when a signal or SIGKILL ends the process;
 * - a tiny reaper shell per child whose stdin is a pipe from this process: when this process
 *   dies for any reason the pipe closes, `read` returns and the reaper SIGKILLs the child.
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
}

export async function spawnOwnedChild(command: string, args: readonly string[], options: OwnedChildOptions): Promise<OwnedChild> {
  installExitHook();
  const { removeOnParentDeath, ...spawnOptions } = options;
  const child = spawn(command, args, spawnOptions);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (err) => reject(new Error(`could not start ${command}: ${err.message}`, { cause: err })));
  });
  // Later errors (a failed kill) must not crash the process: the exit is observed via "close".
  child.on("error", () => {});
  const pid = child.pid as number; // Set once "spawn" has fired.
  liveChildren.add(child);
  const reaper = startReaper(pid, removeOnParentDeath);

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

const REAPER_SCRIPT = 'read -r _ || true; kill -KILL "$1" 2>/dev/null; if [ -n "$2" ]; then rm -rf -- "$2"; fi';

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
