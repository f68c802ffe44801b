// The simulator card-page driver lives beside the simulator.
export { futureExpiry, payOnCardPage, type CardEntry, type CardPageResult } from "@gateway/testkit";
