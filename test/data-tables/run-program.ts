/**
 * Runs an @azure/data-tables program (a fixture) as a separate Node process, as written against
 * Azurite or ported to tablekit/data-tables by changing only its import line and connection string.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const run = promisify(execFile);

/** The Azurite connection string the fixtures are written with (its default table port). */
const WRITTEN_ENDPOINT = "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;";
const CONNECTION_LINE = /^( *)"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;[^"]*";$/m;

export function fixtureSource(name: string): string {
  return readFileSync(join(root, "test", "data-tables", "fixtures", name), "utf8");
}

/** The program as written, pointed at an Azurite on another port (the connection string alone changes). */
export function forAzurite(source: string, tableEndpoint: string): string {
  if (!source.includes(WRITTEN_ENDPOINT)) throw new Error("fixture lacks the Azurite connection string");
  return source.replace(WRITTEN_ENDPOINT, `TableEndpoint=${tableEndpoint};`);
}

/** The port: the import line and the connection string changed by text substitution, nothing else. */
export function forTablekit(source: string, storeUrl: string): string {
  const ported = source
    .replace(/from "@azure\/data-tables";/, 'from "tablekit/data-tables";')
    .replace(CONNECTION_LINE, (_, indent: string) => `${indent}${JSON.stringify(storeUrl)};`);
  return ported;
}

/** Lines that differ between two sources (by position; the substitutions keep the line count). */
export function changedLines(a: string, b: string): string[] {
  const left = a.split("\n");
  const right = b.split("\n");
  if (left.length !== right.length) return [`line count ${left.length} → ${right.length}`];
  return left.flatMap((line, i) => (line === right[i] ? [] : [`${line} → ${right[i]}`]));
}

/**
 * Runs a program's source with tsx from a scratch folder inside the repository (so that both
 * `@azure/data-tables` and the package's own `tablekit/data-tables` resolve, the latter to
 * dist/ as a user gets it), and returns what it printed, line by line. ETags, timestamps and
 * dates are printed by the programs as "present"; the endpoint in `odata.metadata` (a random
 * port, a store URL) is the one other thing normalized here.
 */
export async function runProgram(source: string, label: string, args: string[] = []): Promise<string[]> {
  const dir = join(root, ".tmp", `data-tables-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${label.replace(/[^a-z0-9-]/gi, "_")}.ts`);
  writeFileSync(file, source);
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", file, ...args], {
      cwd: root,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.replace(/string:\S*?\/\$metadata#/g, "string:<endpoint>/$metadata#"));
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${label} failed:\n${e.stdout ?? ""}\n${e.stderr ?? String(err)}`);
  } finally {
    rmSync(file, { force: true });
  }
}
