import { FormatRegistry } from "@sinclair/typebox";

// The JSON Schema formats the response schemas use, so TypeBox can check answers and examples
// (it refuses formats it does not know).
if (!FormatRegistry.Has("date-time")) {
  FormatRegistry.Set(
    "date-time",
    (v) =>
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/.test(v) && !Number.isNaN(Date.parse(v)),
  );
}
if (!FormatRegistry.Has("uri")) FormatRegistry.Set("uri", (v) => URL.canParse(v));
