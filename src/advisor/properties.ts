/**
 * Properties and limits: a property whose EDM type differs between entities of one type, entities
 * near the 252-property or size limit, String/Binary values near 64 KiB, and entity types whose
 * newer entities are larger, projected to cross a limit.
 */
import { EDM_TYPES, type EdmType, entitySize, utf8ItemSize } from "../model/index.js";
import type { CompiledModel } from "../patterns/entity-models/define-model.js";
import {
  type AnalyzerSettings,
  boundedGet,
  type Collector,
  Examples,
  plural,
  type ScannedEntity,
} from "./collector.js";
import { type AdvisorFinding, finding } from "./findings.js";
import { familyOf, showKey } from "./key-shapes.js";

interface PropertyTypes {
  readonly counts: number[];
  readonly example: (string | undefined)[];
}

/** Streaming least squares of y over x (days since the first entity). */
class Trend {
  n = 0;
  private sx = 0;
  private sy = 0;
  private sxy = 0;
  private sxx = 0;
  private syy = 0;
  minX = Number.POSITIVE_INFINITY;
  maxX = Number.NEGATIVE_INFINITY;
  maxY = 0;

  add(x: number, y: number): void {
    this.n++;
    this.sx += x;
    this.sy += y;
    this.sxy += x * y;
    this.sxx += x * x;
    this.syy += y * y;
    this.minX = Math.min(this.minX, x);
    this.maxX = Math.max(this.maxX, x);
    this.maxY = Math.max(this.maxY, y);
  }

  /** Slope per day and the correlation, when there is a line to speak of. */
  fit(): { slope: number; r: number } | undefined {
    const vx = this.n * this.sxx - this.sx ** 2;
    const vy = this.n * this.syy - this.sy ** 2;
    if (this.n < 10 || vx <= 0 || vy <= 0) return undefined;
    const cov = this.n * this.sxy - this.sx * this.sy;
    return { slope: cov / vx, r: cov / Math.sqrt(vx * vy) };
  }
}

interface TypeStats {
  readonly properties: Map<string, PropertyTypes>;
  readonly size: Trend;
  readonly count: Trend;
  largest: string;
}

interface NearLimit {
  count: number;
  max: number;
  readonly examples: Examples;
}

const nearLimit = (): NearLimit => ({ count: 0, max: 0, examples: new Examples() });
const MAX_TYPES = 64;
const MAX_PROPERTIES = 512;

export class Properties implements Collector {
  private readonly types = new Map<string, TypeStats>();
  private readonly propertyCount = nearLimit();
  private readonly size = nearLimit();
  private readonly values = nearLimit();
  private origin: number | undefined;

  constructor(private readonly settings: AnalyzerSettings) {}

  endPartition(): void {}

  add(entity: ScannedEntity): void {
    const { limits, nearLimit: near } = this.settings;
    const where = `${showKey(entity.partitionKey)} / ${showKey(entity.rowKey)}`;
    const type = entityTypeOf(entity, this.settings.models);
    const stats = boundedGet(this.types, type, MAX_TYPES, () => ({
      properties: new Map(),
      size: new Trend(),
      count: new Trend(),
      largest: "",
    }));
    for (const [name, tv] of entity.properties) {
      const p =
        stats &&
        boundedGet(stats.properties, name, MAX_PROPERTIES, () => ({
          counts: [0, 0, 0, 0, 0, 0, 0, 0],
          example: [],
        }));
      if (p) {
        const i = EDM_TYPES.indexOf(tv.type);
        p.counts[i]!++;
        p.example[i] ??= where;
      }
      const bytes =
        tv.type === "String" ? 2 * tv.value.length : tv.type === "Binary" ? tv.value.byteLength : 0;
      const max = tv.type === "String" ? limits.maxStringBytes : limits.maxBinaryBytes;
      if (bytes >= near * max) note(this.values, bytes / max, `${where} ${name} (${kib(bytes)})`);
    }
    const normalized = {
      partitionKey: entity.partitionKey,
      rowKey: entity.rowKey,
      properties: entity.properties,
    };
    const sizeRatio = Math.max(
      entitySize(normalized) / limits.maxEntityBytes,
      limits.maxItemBytes === undefined ? 0 : utf8ItemSize(normalized) / limits.maxItemBytes,
    );
    const countRatio = entity.properties.size / limits.maxProperties;
    if (countRatio >= near)
      note(this.propertyCount, entity.properties.size, `${where} (${entity.properties.size} properties)`);
    if (sizeRatio >= near)
      note(this.size, sizeRatio, `${where} (${Math.round(sizeRatio * 100)}% of the limit)`);
    if (stats) {
      this.origin ??= entity.timestampMs;
      const day = (entity.timestampMs - this.origin) / 86_400_000;
      if (sizeRatio > stats.size.maxY) stats.largest = where;
      stats.size.add(day, sizeRatio);
      stats.count.add(day, countRatio);
    }
  }

  findings(): AdvisorFinding[] {
    const { limits } = this.settings;
    const out: AdvisorFinding[] = [];
    for (const [type, stats] of this.types) {
      for (const [name, p] of stats.properties) {
        const seen = EDM_TYPES.filter((_, i) => p.counts[i]! > 0);
        if (seen.length < 2) continue;
        const minority = Math.min(...seen.map((t) => p.counts[EDM_TYPES.indexOf(t)]!));
        out.push(
          finding("property-type-mixed", "warning", {
            subject: `property '${name}'${type === "*" ? "" : ` of ${type}`}`,
            count: minority,
            message: `'${name}' is stored as ${seen.map((t) => `${typeName(t)} (${plural(p.counts[EDM_TYPES.indexOf(t)]!, "entity", "entities")})`).join(", ")}.`,
            examples: seen.map((t) => `${p.example[EDM_TYPES.indexOf(t)]}: ${typeName(t)}`),
          }),
        );
      }
      out.push(...this.growth(type, stats));
    }
    const near = (
      n: NearLimit,
      id: "property-count-near-limit" | "entity-size-near-limit" | "value-size-near-limit",
      over: boolean,
      message: string,
    ) => {
      if (n.count > 0)
        out.push(
          finding(id, over ? "error" : "warning", {
            subject: "entities",
            count: n.count,
            message,
            examples: n.examples.list,
          }),
        );
    };
    near(
      this.propertyCount,
      "property-count-near-limit",
      this.propertyCount.max > limits.maxProperties,
      `${plural(this.propertyCount.count, "entity", "entities")} have ${Math.round(this.settings.nearLimit * 100)}% or more of the ${limits.maxProperties} properties an entity may have (up to ${this.propertyCount.max}).`,
    );
    near(
      this.size,
      "entity-size-near-limit",
      this.size.max > 1,
      `${plural(this.size.count, "entity", "entities")} are at ${Math.round(this.settings.nearLimit * 100)}% or more of the store's entity size limit (${kib(limits.maxEntityBytes)}${limits.maxItemBytes ? `; ${kib(limits.maxItemBytes)} as DynamoDB counts` : ""}), up to ${Math.round(this.size.max * 100)}%.`,
    );
    near(
      this.values,
      "value-size-near-limit",
      this.values.max > 1,
      `${plural(this.values.count, "value")} are at ${Math.round(this.settings.nearLimit * 100)}% or more of the 64 KiB a String or Binary property may hold, up to ${Math.round(this.values.max * 100)}%.`,
    );
    return out;
  }

  /** Newer entities of a type are larger: how long until the largest crosses a limit. */
  private growth(type: string, stats: TypeStats): AdvisorFinding[] {
    const out: AdvisorFinding[] = [];
    for (const [trend, what] of [
      [stats.size, "size"],
      [stats.count, "property count"],
    ] as const) {
      const fit = trend.fit();
      if (!fit || fit.slope <= 0 || fit.r < 0.8 || trend.maxX - trend.minX < 1 / 24 || trend.maxY >= 1)
        continue;
      const days = (1 - trend.maxY) / fit.slope;
      if (days > this.settings.growthHorizonDays) continue;
      out.push(
        finding("limit-growth", "warning", {
          subject: type === "*" ? "entities" : `entities of ${type}`,
          count: trend.n,
          message: `Over ${(trend.maxX - trend.minX).toFixed(1)} days of writes, newer entities are larger (correlation ${fit.r.toFixed(2)}): ${what} grows by ${(fit.slope * 100).toFixed(2)}% of its limit a day, and the largest (${Math.round(trend.maxY * 100)}%) reaches the limit in about ${Math.ceil(days)} days.`,
          examples: stats.largest ? [stats.largest] : [],
        }),
      );
    }
    return out;
  }
}

function note(n: NearLimit, value: number, example: string): void {
  n.count++;
  n.max = Math.max(n.max, value);
  n.examples.add(example);
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KiB`;
const typeName = (t: EdmType) => `Edm.${t}`;

/**
 * The entity type an entity belongs to: its model's (by type property), an `EntityType` String
 * property, the RowKey's leading letters and separator (`empid_`, `email_`), or `*` (one type).
 */
export function entityTypeOf(entity: ScannedEntity, models: readonly CompiledModel[]): string {
  for (const m of models) {
    if (m.typeProperty && entity.properties.get(m.typeProperty)?.value === m.entityType) return m.entityType!;
  }
  const declared = entity.properties.get("EntityType");
  if (declared?.type === "String") return declared.value;
  const fam = familyOf(entity.rowKey);
  return fam && fam.family !== "" && "_-:!|".includes(fam.separator) ? `${fam.family}${fam.separator}…` : "*";
}
