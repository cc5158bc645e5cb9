/**
 * A progress bar on stderr for long work — only on a TTY, and never with --no-progress. Amounts
 * are in human units (12.3 MB, 8,120 entities), rates per second, and the ETA is smoothed over a
 * window (rate-window.ts), so it does not jump with each burst of writes.
 */
import cliProgress from "cli-progress";
import { terminal } from "../output/terminal.js";
import { humanBytes, humanCount, humanDuration, RateWindow } from "./rate-window.js";

export interface Progress {
  /** Sets the amount done so far, and (for a bar that counts them too) the entities. */
  update(done: number, entities?: number): void;
  /** Stops the bar; after work that completed, shows it full. */
  stop(completed?: boolean): void;
}

const SILENT: Progress = { update: () => {}, stop: () => {} };

export interface ProgressOptions {
  readonly enabled: boolean;
  readonly label: string;
  /** What is counted: bytes (shown as kB, MB, …) or entities. */
  readonly unit: "bytes" | "entities";
  /** For a bar of bytes: also show the entities written, and their rate (an import). */
  readonly countsEntities?: boolean;
  /** The amount at completion; without it the bar shows only the amounts and rates. */
  readonly total?: number;
  /** Where the count starts (a resumed run), and the entities done by then. */
  readonly start?: number;
  readonly startEntities?: number;
}

/** True when a bar would be seen: stderr is a TTY and the user did not ask for quiet. */
export function progressWanted(progressOption: boolean | undefined): boolean {
  return progressOption !== false && terminal().err.isTTY;
}

/** The bar's text after `{bar}`, for the amounts done (pure: the test reads it). */
export function progressText(
  options: Pick<ProgressOptions, "unit" | "countsEntities" | "total">,
  done: number,
  entities: number,
  window: RateWindow,
): string {
  const amount = (n: number) => (options.unit === "bytes" ? humanBytes(n) : humanCount(n));
  const parts = [options.total === undefined ? amount(done) : `${amount(done)} of ${amount(options.total)}`];
  if (options.unit === "entities") parts[0] += " entities";
  else if (options.countsEntities) parts.push(`${humanCount(entities)} entities`);
  const rate = window.rate;
  const entityRate =
    options.unit === "entities" ? rate : options.countsEntities ? window.entityRate : undefined;
  const rates = [
    ...(entityRate === undefined ? [] : [`${humanCount(entityRate)} entities/s`]),
    ...(options.unit === "bytes" && rate !== undefined ? [`${humanBytes(rate)}/s`] : []),
  ];
  if (rates.length > 0) parts.push(rates.join(", "));
  if (options.total !== undefined) parts.push(`ETA ${humanDuration(window.eta(options.total))}`);
  return parts.join(" | ");
}

/** Starts a bar (or a silent stand-in when disabled). */
export function startProgress(options: ProgressOptions): Progress {
  if (!options.enabled) return SILENT;
  const known = options.total !== undefined;
  const bar = new cliProgress.SingleBar({
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: false,
    format: known ? `${options.label} [{bar}] {percentage}% | {text}` : `${options.label} {text}`,
    barCompleteChar: "█",
    barIncompleteChar: "░",
  });
  const window = new RateWindow();
  let entities = options.startEntities ?? 0;
  const text = (done: number) => {
    window.add(performance.now(), done, entities);
    return { text: progressText(options, done, entities, window) };
  };
  bar.start(options.total ?? 0, options.start ?? 0, text(options.start ?? 0));
  return {
    update: (done, count) => {
      if (count !== undefined) entities = count;
      bar.update(done, text(done));
    },
    stop: (completed) => {
      if (completed && known) bar.update(options.total!, text(options.total!));
      bar.stop();
    },
  };
}
