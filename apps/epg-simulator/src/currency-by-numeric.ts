import { type CurrencyInfo, currencyInfo } from "@gateway/money";

let byNumeric: ReadonlyMap<string, CurrencyInfo> | undefined;

// @gateway/money looks currencies up by alphabetic code only, and the protocol speaks ISO
// numeric codes. The reverse table is built once by asking for every three-letter code
// (17,576 map lookups, well under a millisecond each time the process starts).
function buildTable(): ReadonlyMap<string, CurrencyInfo> {
  const table = new Map<string, CurrencyInfo>();
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const a of letters) {
    for (const b of letters) {
      for (const c of letters) {
        const info = currencyInfo(a + b + c);
        if (info !== undefined) table.set(info.numeric, info);
      }
    }
  }
  return table;
}

/** The ISO 4217 entry for a numeric code such as "788" (TND). */
export function currencyByNumeric(numeric: string): CurrencyInfo | undefined {
  byNumeric ??= buildTable();
  return byNumeric.get(numeric);
}
