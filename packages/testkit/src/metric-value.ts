import { metricsRegistry } from "@gateway/platform";

/**
 * The current value of one series in this process's metrics registry: a counter or gauge, or a
 * histogram's observation count. `labels` must name every label of the series; 0 when it has
 * not been recorded yet. Tests compare values before and after (the registry is process-wide).
 */
export async function metricValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = metricsRegistry.getSingleMetric(name);
  if (!metric) throw new Error(`metric ${name} is not registered`);
  const { type, values } = await metric.get();
  const wanted = Object.entries(labels).sort();
  const match = values.find((v) => {
    const { metricName } = v as { metricName?: string };
    if (String(type) === "histogram" && metricName !== `${name}_count`) return false;
    const actual = Object.entries(v.labels)
      .filter(([k]) => k !== "le")
      .sort();
    return JSON.stringify(actual) === JSON.stringify(wanted);
  });
  return match?.value ?? 0;
}
