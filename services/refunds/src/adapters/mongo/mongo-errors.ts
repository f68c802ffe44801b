import { mongoOperationRunner } from "@gateway/platform";

/** Runs one refunds database operation; an unreachable database becomes SERVICE_UNAVAILABLE. */
export const runMongo = mongoOperationRunner("refunds");
