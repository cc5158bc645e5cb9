/** A progress bar on stderr for long work — only on a TTY, and never with --no-progress. */
import cliProgress from "cli-progress";
import { terminal } from "../output/terminal.js";

export interface Progress {
  /** Sets the amount done so far. */
  update(done: number): void;
  /** Stops the bar; after work that completed, shows it full. */
  stop(completed?: boolean): void;
}

const SILENT: Progress = { update: () => {}, stop: () => {} };

export interface ProgressOptions {
  readonly enabled: boolean;
  readonly label: string;
  /** What is counted ("entities", "bytes"). */
  readonly unit: string;
  /** The amount at completion; without it the bar shows only the count and rate. */
  readonly total?: number;
  /** Where the count starts (a resumed run). */
  readonly start?: number;
}

/** True when a bar would be seen: stderr is a TTY and the user did not ask for quiet. */
export function progressWanted(progressOption: boolean | undefined): boolean {
  return progressOption !== false && terminal().err.isTTY;
}

/** Starts a bar (or a silent stand-in when disabled). */
export function startProgress(options: ProgressOptions): Progress {
  if (!options.enabled) return SILENT;
  const known = options.total !== undefined;
  const bar = new cliProgress.SingleBar({
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: false,
    format: known
      ? `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit} | ETA {eta_formatted}`
      : `${options.label} {value} ${options.unit} | {duration_formatted}`,
    barCompleteChar: "█",
    barIncompleteChar: "░",
  });
  bar.start(options.total ?? 0, options.start ?? 0);
  return {
    update: (done) => bar.update(done),
    stop: (completed) => {
      if (completed && known) bar.update(options.total!);
      bar.stop();
    },
  };
}
