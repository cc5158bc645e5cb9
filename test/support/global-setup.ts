/** Runs once before any test file (and so before any service starts): says what is missing. */
import { missingNotice, prerequisites } from "./prerequisites.js";

export default function setup(): void {
  const notice = missingNotice(prerequisites());
  if (notice) process.stderr.write(`\n${notice}\n\n`);
}
