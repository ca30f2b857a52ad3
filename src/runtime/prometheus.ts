// A meter that keeps the executor's and the recorder's metrics in memory and
// writes them in Prometheus' text format (version 0.0.4) for `/metrics`: no
// OpenTelemetry SDK and no global provider. Series are keyed by their
// attributes, which are the package's own low-cardinality ones (tool, handler,
// status, reason): bounded by the registry, not by what a peer sends.

type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

interface Series {
  readonly labels: string;
  value: number;
  /** Histograms: cumulative counts per bound, then the sum. */
  buckets?: number[];
  sum?: number;
}

interface Metric {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "histogram" | "gauge";
  readonly bounds: readonly number[];
  readonly series: Map<string, Series>;
}

/** Prometheus label names: `[a-zA-Z_][a-zA-Z0-9_]*`; anything else becomes `_`. */
function labelName(key: string): string {
  const name = key.replace(/[^a-zA-Z0-9_]/g, "_");
  return /^[a-zA-Z_]/.test(name) ? name : `_${name}`;
}

/** A label value with `\`, `"` and newlines escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/**
 * The series' labels, sorted by attribute name. `le` (the histogram's own) and
 * a name that another attribute already took once cleaned (`tool.name` and
 * `tool_name`) are left out: a scrape with a duplicate label is refused whole.
 */
function labelsOf(attributes: Attributes | undefined): string {
  if (attributes === undefined) return "";
  const parts: string[] = [];
  const taken = new Set<string>(["le"]);
  for (const key of Object.keys(attributes).sort()) {
    const v = attributes[key];
    if (v === undefined) continue;
    const name = labelName(key);
    if (taken.has(name)) continue;
    taken.add(name);
    parts.push(`${name}="${labelValue(String(v))}"`);
  }
  return parts.join(",");
}

function number(n: number): string {
  if (n === Infinity) return "+Inf";
  if (n === -Infinity) return "-Inf";
  return Number.isNaN(n) ? "NaN" : String(n);
}

function withLabels(labels: string, extra?: string): string {
  const all = [labels, extra].filter((p) => p !== undefined && p !== "").join(",");
  return all === "" ? "" : `{${all}}`;
}

/**
 * An in-memory meter with the shape of OpenTelemetry's `Meter` (counters and
 * histograms), rendering Prometheus text.
 * @internal Does not follow semver.
 */
export class PrometheusMeter {
  readonly #metrics = new Map<string, Metric>();

  #metric(name: string, help: string, type: Metric["type"], bounds: readonly number[] = []): Metric {
    let metric = this.#metrics.get(name);
    if (metric === undefined) {
      metric = { name, help, type, bounds: [...bounds].sort((a, b) => a - b), series: new Map() };
      this.#metrics.set(name, metric);
    }
    return metric;
  }

  #series(metric: Metric, attributes: Attributes | undefined): Series {
    const labels = labelsOf(attributes);
    let series = metric.series.get(labels);
    if (series === undefined) {
      series = metric.type === "histogram" ? { labels, value: 0, buckets: metric.bounds.map(() => 0), sum: 0 } : { labels, value: 0 };
      metric.series.set(labels, series);
    }
    return series;
  }

  createCounter(name: string, options: { description: string }): { add(value: number, attributes?: Attributes): void } {
    const metric = this.#metric(name, options.description, "counter");
    return {
      add: (value, attributes) => {
        if (!(value >= 0)) return;
        this.#series(metric, attributes).value += value;
      },
    };
  }

  createHistogram(name: string, options: { description: string; advice?: { explicitBucketBoundaries?: number[] } }): { record(value: number, attributes?: Attributes): void } {
    const metric = this.#metric(name, options.description, "histogram", options.advice?.explicitBucketBoundaries ?? []);
    return {
      record: (value, attributes) => {
        if (Number.isNaN(value)) return;
        const series = this.#series(metric, attributes);
        series.value += 1;
        series.sum = (series.sum ?? 0) + value;
        metric.bounds.forEach((bound, i) => {
          if (value <= bound) (series.buckets as number[])[i]! += 1;
        });
      },
    };
  }

  /** A gauge that is always `value` with these labels (`omnia_runtime_info`). */
  setGauge(name: string, help: string, attributes: Attributes, value: number): void {
    this.#series(this.#metric(name, help, "gauge"), attributes).value = value;
  }

  /** Every metric in Prometheus text format, in the order they were created. */
  render(): string {
    const out: string[] = [];
    for (const metric of this.#metrics.values()) {
      if (metric.series.size === 0) continue;
      out.push(`# HELP ${metric.name} ${metric.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`, `# TYPE ${metric.name} ${metric.type}`);
      for (const series of metric.series.values()) {
        if (metric.type !== "histogram") {
          out.push(`${metric.name}${withLabels(series.labels)} ${number(series.value)}`);
          continue;
        }
        metric.bounds.forEach((bound, i) => out.push(`${metric.name}_bucket${withLabels(series.labels, `le="${number(bound)}"`)} ${(series.buckets as number[])[i]}`));
        out.push(`${metric.name}_bucket${withLabels(series.labels, 'le="+Inf"')} ${series.value}`);
        out.push(`${metric.name}_sum${withLabels(series.labels)} ${number(series.sum ?? 0)}`);
        out.push(`${metric.name}_count${withLabels(series.labels)} ${series.value}`);
      }
    }
    return out.length === 0 ? "" : `${out.join("\n")}\n`;
  }
}
