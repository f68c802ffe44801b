import { InMemorySweepLocks } from "../src/adapters/memory/in-memory-sweep-locks.js";
import { sweepLocksContract } from "./contracts/sweep-locks.contract.js";

sweepLocksContract("in memory", async () => new InMemorySweepLocks());
