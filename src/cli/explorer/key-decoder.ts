/**
 * Keys read back as the codec that made them: a model's key spec when one matches, else a guess
 * from the key's shape (19-digit ticks, padded numbers, compound and hierarchical components,
 * version keys, hash buckets). Each reading is a label and a value, for the explorer to show.
 */

import { isCompoundEncoded, ticksForm } from "../../advisor/key-shapes.js";
import {
  chronologicalTicks,
  compoundKey,
  invertedTicks,
  type KeyCodec,
  uniqueTicks,
  versionKey,
} from "../../keys/index.js";
import { DateTime } from "../../model/index.js";
import type { CompiledModel, KeySpec } from "../../patterns/index.js";

/** One reading of a key: what codec, and what it decodes to. */
export interface KeyReading {
  readonly codec: string;
  readonly value: string;
}

const COMPOUND = compoundKey();

function show(value: unknown): string {
  if (value instanceof DateTime) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  if (Array.isArray(value)) return value.map(show).join(" / ");
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => `${k}=${show(v)}`)
      .join(", ");
  }
  return String(value);
}

/** The fields of a key through a model's spec, or undefined when the key is not one of its keys. */
export function decodeWithSpec(spec: KeySpec<never, readonly string[]>, key: string): string | undefined {
  if (!key.startsWith(spec.prefix) || spec.parts.length === 0) return undefined;
  const rest = key.slice(spec.prefix.length);
  try {
    const components = spec.parts.length === 1 ? [rest] : COMPOUND.decode(rest);
    if (components.length !== spec.parts.length) return undefined;
    return spec.parts
      .map((p, i) => `${p.name}=${show((p.codec as KeyCodec<unknown, unknown>).decode(components[i]!))}`)
      .join(", ");
  } catch {
    return undefined;
  }
}

/** Every reading of a key: by the models' specs first, then by shape. */
export function readKey(
  key: string,
  kind: "PartitionKey" | "RowKey",
  models: readonly CompiledModel[],
): KeyReading[] {
  const readings: KeyReading[] = [];
  for (const m of models) {
    const specs: [string, KeySpec<never, readonly string[]>][] =
      kind === "PartitionKey"
        ? [["", m.partitionKey as unknown as KeySpec<never, readonly string[]>]]
        : [
            ["", m.rowKey as unknown as KeySpec<never, readonly string[]>],
            ...m.indexes.map(
              (ix) =>
                [` index ${ix.name}`, ix.key as unknown as KeySpec<never, readonly string[]>] as [
                  string,
                  KeySpec<never, readonly string[]>,
                ],
            ),
          ];
    for (const [what, spec] of specs) {
      const value = decodeWithSpec(spec, key);
      if (value !== undefined && (spec.prefix !== "" || spec.parts.length > 0)) {
        readings.push({ codec: `${m.entityType ?? m.table}${what}`, value });
      }
    }
  }
  if (readings.length > 0) return readings;
  const guess = guessKey(key);
  return guess ? [guess] : [];
}

/** What a key's shape says it is, when it says anything. */
export function guessKey(key: string): KeyReading | undefined {
  const form = /^\d{19}$/.test(key) ? ticksForm(key) : undefined;
  if (form === "ticks19") return { codec: "ticks", value: show(chronologicalTicks().decode(key)) };
  if (form === "inverted19") return { codec: "inverted ticks", value: show(invertedTicks().decode(key)) };
  const unique = /^(\d{19})_[0-9a-f]{12}/.exec(key);
  if (unique) {
    const inverted = ticksForm(unique[1]!) === "inverted19";
    try {
      const d = uniqueTicks({ inverted }).decode(key);
      return {
        codec: inverted ? "unique inverted ticks" : "unique ticks",
        value: `${show(d.time)} #${d.counter} ${d.node}`,
      };
    } catch {
      // not one after all
    }
  }
  const version = /^v(0|\d{2,15})_/.exec(key);
  if (version) {
    try {
      const digits = version[1] === "0" ? 6 : version[1]!.length;
      const v = versionKey({ digits }).decode(key);
      return {
        codec: "version",
        value: v.version === 0 ? `latest of ${v.item}` : `version ${v.version} of ${v.item}`,
      };
    } catch {
      // not one after all
    }
  }
  if (/^0\d+$/.test(key) && key.length <= 19)
    return { codec: "padded number", value: `${BigInt(key)} (width ${key.length})` };
  const literal = /^([A-Za-z]{1,32}_)?(0\d{1,18})$/.exec(key);
  if (literal)
    return {
      codec: "padded number",
      value: `${literal[1] ?? ""}${BigInt(literal[2]!)} (width ${literal[2]!.length})`,
    };
  if (isCompoundEncoded(key)) {
    for (let i = 0; i < key.length; i++) {
      if (i > 0 && /[A-Za-z0-9]/.test(key[i - 1]!)) continue;
      try {
        const parts = COMPOUND.decode(key.slice(i));
        return {
          codec: "compound",
          value: `${i > 0 ? `${key.slice(0, i)} ` : ""}${parts.map((p) => JSON.stringify(p)).join(" / ")}`,
        };
      } catch {
        // try after the next separator
      }
    }
  }
  const bucket = /^(\d{2,5})_(.+)$/.exec(key);
  if (bucket) return { codec: "hash bucket", value: `bucket ${Number(bucket[1])}: ${bucket[2]}` };
  return undefined;
}
