// The load generator stands for clients on other machines. On the bench's machine it shares the
// cores with every server it measures, so when they are busy its event loop can wait for a core,
// and an open loop counts that wait in the latency of every request due meanwhile, the
// gateway's and the floor's alike. While an open loop measures latency, the generator's thread
// therefore runs at a higher scheduling priority, where the system allows it
// (docs/decisions.md#the-load-generator-measures-latency-at-a-higher-priority).
import { getPriority, setPriority } from "node:os";

/** The nice value of the generator's thread while it measures latency (0 is the default). */
export const RAISED_NICE = -10;

/**
 * Runs `measure` with this thread's nice value at RAISED_NICE, then restores it, also when
 * `measure` throws. `raised` says whether the system allowed it (raising needs root or
 * CAP_SYS_NICE); if not, `measure` runs at the usual priority. Start no process inside
 * `measure`: a child inherits the nice value of the thread that starts it.
 */
export async function withRaisedPriority<T>(
  measure: () => Promise<T>,
): Promise<{ result: T; raised: boolean }> {
  const before = getPriority();
  let raised = false;
  try {
    setPriority(RAISED_NICE);
    raised = true;
  } catch {
    // EACCES: not permitted here; measure at the usual priority, and say so.
  }
  try {
    return { result: await measure(), raised };
  } finally {
    if (raised) setPriority(before);
  }
}
