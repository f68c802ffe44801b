import { mongoOperationRunner } from "@gateway/platform";

export { isMongoUnavailable } from "@gateway/platform";

/** Runs one accounts database operation; an unreachable database becomes SERVICE_UNAVAILABLE. */
export const runMongo = mongoOperationRunner("accounts");
