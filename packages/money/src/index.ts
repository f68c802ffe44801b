// Public surface of @gateway/money: ISO 4217 table, strict amount and rate parsing, minor units,
// conversion to the settlement currency. All arithmetic on decimal.js through `D`.
export { D, type Dec } from "./decimal.js";
export {
  type CurrencyInfo,
  SETTLEMENT_CURRENCY,
  currencyInfo,
  isCurrencyCode,
} from "./currencies.js";
export { type AmountErrorCode, type AmountParse, parseAmount } from "./parse-amount.js";
export { toMinorUnits, fromMinorUnits, formatAmount } from "./minor-units.js";
export { minorFromStored } from "./stored-minor.js";
export { type RateParse, parseRate, formatRate } from "./rate.js";
export {
  convertToSettlement,
  MAX_AMOUNT_TND,
  exceedsMaximum,
  percentOf,
} from "./conversion.js";
