import { InMemoryRefundRepository } from "../src/adapters/memory/in-memory-refund-repository.js";
import { refundRepositoryContract } from "./contracts/refund-repository.contract.js";

const repo = new InMemoryRefundRepository();
refundRepositoryContract("in memory", async () => repo);
