import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The newest modification time of any file under `dir`: is a build older than its sources? */
export function newestMtime(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, d) => {
    const p = join(dir, d.name);
    return Math.max(newest, d.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }, 0);
}
