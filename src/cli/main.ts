#!/usr/bin/env node
/** The `tablekit` binary: runs the program and turns failures into `error <Code>: …` and an exit status. */
import { readFileSync } from "node:fs";
import { terminal } from "./output/terminal.js";
import { buildProgram } from "./program.js";
import { reportError } from "./report.js";

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return String(pkg.version);
  } catch {
    return "0.0.0";
  }
}

// A closed pipe (`tablekit query … | head`) is not an error worth a stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

try {
  await buildProgram(packageVersion()).parseAsync(process.argv);
} catch (err) {
  process.exitCode = reportError(err, terminal().err);
}
