import { readdirSync, readFileSync } from "node:fs";

/** One process as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  /** argv joined with spaces. */
  command: string;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields after the last ")" are fixed.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root` (children, grandchildren…), read from /proc (Linux). */
export function descendantsOf(root: number): ProcessInfo[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) parents.set(Number(entry), parent);
  }
  const found: ProcessInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [pid, parent] of parents) {
      if (parent !== current) continue;
      queue.push(pid);
      found.push({ pid, command: commandOf(pid) });
    }
  }
  return found;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** True while the process exists and is not a zombie (a zombie has exited, only its entry waits to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
