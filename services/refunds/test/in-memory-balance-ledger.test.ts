import { InMemoryBalanceLedger } from "../src/adapters/memory/in-memory-balance-ledger.js";
import { balanceLedgerContract } from "./contracts/balance-ledger.contract.js";

const ledger = new InMemoryBalanceLedger();
balanceLedgerContract("in memory", async () => ledger);
