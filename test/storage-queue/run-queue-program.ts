/**
 * Runs an @azure/storage-queue program (a fixture) as written against Azurite, or ported to
 * tablekit/storage-queue by changing only its import line and connection string.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WRITTEN_ENDPOINT = "QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;";
const CONNECTION_LINE = /^( *)"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;[^"]*";$/m;

export function queueFixture(name: string): string {
  return readFileSync(join(root, "test", "storage-queue", "fixtures", name), "utf8");
}

/** The program as written, pointed at an Azurite on another port (the connection string alone changes). */
export function queueForAzurite(source: string, queueEndpoint: string): string {
  if (!source.includes(WRITTEN_ENDPOINT)) throw new Error("fixture lacks the Azurite connection string");
  return source.replace(WRITTEN_ENDPOINT, `QueueEndpoint=${queueEndpoint};`);
}

/** The port: the import line and the connection string changed by text substitution, nothing else. */
export function queueForTablekit(source: string, storeUrl: string): string {
  return source
    .replace(/from "@azure\/storage-queue";/, 'from "tablekit/storage-queue";')
    .replace(CONNECTION_LINE, (_, indent: string) => `${indent}${JSON.stringify(storeUrl)};`);
}
