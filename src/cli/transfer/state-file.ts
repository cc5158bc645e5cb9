/**
 * The small JSON file that makes import, export and copy resumable: written (atomically, by
 * rename) after each committed step, removed when the work completes.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { fileError } from "../../model/file-error.js";
import { TableKitError } from "../../model/index.js";

/** What every state file holds, besides the command's own progress. */
export interface StateHeader {
  /** Which command wrote it. */
  readonly kind: "import" | "export" | "copy";
  /** What the run was doing; a rerun resumes only when these all match. */
  readonly job: Readonly<Record<string, unknown>>;
}

export class StateFile<T extends StateHeader> {
  constructor(readonly path: string) {}

  /** The recorded state, or undefined when there is none. */
  read(): T | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw fileError(err, "read the resume state", this.path);
    }
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new TableKitError(
        "InvalidInput",
        `the resume state ${this.path} is unreadable; remove it or use --restart`,
        {
          cause,
        },
      );
    }
  }

  /**
   * The state to resume from: undefined without one, the state when it describes the same job,
   * an InvalidInput error (nothing written) when it belongs to another.
   */
  resumable(kind: T["kind"], job: Record<string, unknown>): T | undefined {
    const state = this.read();
    if (!state) return undefined;
    if (state.kind !== kind || JSON.stringify(state.job) !== JSON.stringify(job)) {
      throw new TableKitError(
        "InvalidInput",
        `${this.path} records an unfinished ${state.kind} of ${JSON.stringify(state.job)}; rerun that command to resume it, or use --restart to start this one afresh`,
      );
    }
    return state;
  }

  write(state: T): void {
    const temporary = `${this.path}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
      renameSync(temporary, this.path);
    } catch (err) {
      throw fileError(err, "write the resume state", this.path);
    }
  }

  remove(): void {
    try {
      rmSync(this.path, { force: true });
    } catch (err) {
      throw fileError(err, "remove the resume state", this.path);
    }
  }
}
