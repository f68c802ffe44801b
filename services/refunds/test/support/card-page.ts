// The simulator card-page driver lives beside the simulator.
export { type CardEntry, type CardPageResult, futureExpiry, payOnCardPage } from "@gateway/testkit";
