import { mongoOperationRunner } from "@gateway/platform";

export { isMongoUnavailable } from "@gateway/platform";

/** Runs one sessions database operation; an unreachable database becomes SERVICE_UNAVAILABLE. */
export const runMongo = mongoOperationRunner("sessions");
