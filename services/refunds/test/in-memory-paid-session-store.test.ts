import { InMemoryPaidSessionStore } from "../src/adapters/memory/in-memory-paid-session-store.js";
import { paidSessionStoreContract } from "./contracts/paid-session-store.contract.js";

paidSessionStoreContract("in memory", async () => new InMemoryPaidSessionStore());
