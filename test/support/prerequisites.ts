/**
 * The system components some tests need beyond `npm ci`, how to tell whether they are there, and
 * the command that installs them (Debian's packages, as .ci/run installs them). `npm test` says
 * what is missing before it starts any service (vitest.config.ts's global setup).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

export interface Prerequisite {
  /** What is missing, as a user would name it. */
  readonly what: string;
  /** The Debian package that brings it. */
  readonly debianPackage: string;
  /** Which tests need it. */
  readonly neededBy: string;
  /** Why it is not usable here; undefined when it is. */
  readonly problem: string | undefined;
}

export interface Probe {
  /** The PATH to look for `java` on (default: this process's). */
  readonly path?: string;
  readonly python?: string;
  readonly chromium?: string;
}

/** Java 17 or newer on PATH (DynamoDB Local is a jar); undefined when it is there. */
export function javaProblem(path = process.env.PATH ?? ""): string | undefined {
  const run = spawnSync("java", ["-version"], { encoding: "utf8", env: { ...process.env, PATH: path } });
  if (run.error) return "no `java` on PATH";
  const major = /version "(\d+)(?:\.(\d+))?/.exec(run.stderr ?? "");
  const version = major ? Number(major[1] === "1" ? major[2] : major[1]) : Number.NaN;
  return version >= 17 ? undefined : `java is not version 17 or newer (${(run.stderr ?? "").split("\n")[0]})`;
}

/** Every prerequisite, with its problem if it has one. */
export function prerequisites(probe: Probe = {}): Prerequisite[] {
  const python = probe.python ?? "/usr/bin/python3";
  const chromium = probe.chromium ?? "/usr/bin/chromium";
  const pythonOk = spawnSync(python, ["-c", "import azure.data.tables"], { stdio: "ignore" }).status === 0;
  return [
    {
      what: "Java 17+",
      debianPackage: "openjdk-17-jre-headless",
      neededBy: "the DynamoDB suites (DynamoDB Local is a Java program)",
      problem: javaProblem(probe.path),
    },
    {
      what: "Python's azure.data.tables",
      debianPackage: "python3-azure",
      neededBy: "test/server/sdk-python.test.ts (the Python SDK against tablekit serve)",
      problem: pythonOk ? undefined : `${python} cannot import azure.data.tables`,
    },
    {
      what: "Chromium",
      debianPackage: "chromium",
      neededBy: "the explorer's browser tests",
      problem: existsSync(chromium) ? undefined : `${chromium} is missing`,
    },
  ];
}

/**
 * `apt-get` as this user runs it: plain as root (CI, containers), or where there is no sudo to run;
 * `sudo apt-get` otherwise.
 */
export function aptGet(
  user: { readonly root?: boolean; readonly path?: string } = {},
): "apt-get" | "sudo apt-get" {
  const root = user.root ?? process.getuid?.() === 0;
  const path = user.path ?? process.env.PATH ?? "";
  const hasSudo = path.split(delimiter).some((dir) => dir !== "" && existsSync(join(dir, "sudo")));
  return root || !hasSudo ? "apt-get" : "sudo apt-get";
}

/** The notice for what is missing, with the one command that installs it; undefined when nothing is. */
export function missingNotice(all: readonly Prerequisite[], apt = aptGet()): string | undefined {
  const missing = all.filter((p) => p.problem !== undefined);
  if (missing.length === 0) return undefined;
  return [
    "Some tests need system components that are missing here:",
    ...missing.map((p) => `  - ${p.what} (${p.problem}): needed by ${p.neededBy}`),
    "Those tests will fail (or, outside CI, skip). Install them with (Debian/Ubuntu, as .ci/run does):",
    `  ${apt} install -y --no-install-recommends ${missing.map((p) => p.debianPackage).join(" ")}`,
  ].join("\n");
}
