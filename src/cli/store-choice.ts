/**
 * Which store a command opens. The first of these that is set wins (docs/cli.md, "Which store"):
 * `--store URL`; `TABLEKIT_STORE`; `AZURE_STORAGE_CONNECTION_STRING` (an `azure:` store, as the
 * Azure CLI and SDKs read it); the AWS variables — `AWS_ENDPOINT_URL_DYNAMODB`, or a region
 * (`AWS_REGION`, `AWS_DEFAULT_REGION`) with credentials (`AWS_ACCESS_KEY_ID`, `AWS_PROFILE`) — for a
 * `dynamodb:` store; else `file:./tablekit.db`.
 */
import { existsSync } from "node:fs";
import { TableKitError } from "../model/index.js";
import { DEFAULT_STORE_URL } from "../store/index.js";
import type { Channel } from "./output/terminal.js";

/** A store URL and what named it. */
export interface StoreChoice {
  readonly url: string;
  /** `--store`, an environment variable's name (or names), or `default`. */
  readonly source: string;
}

/** The store a command uses: the option when given, else the environment, else the default file. */
export function chooseStore(option: string | undefined, env: NodeJS.ProcessEnv = process.env): StoreChoice {
  if (option !== undefined) return { url: option, source: "--store" };
  if (env.TABLEKIT_STORE) return { url: env.TABLEKIT_STORE, source: "TABLEKIT_STORE" };
  if (env.AZURE_STORAGE_CONNECTION_STRING) {
    return { url: `azure:${env.AZURE_STORAGE_CONNECTION_STRING}`, source: "AZURE_STORAGE_CONNECTION_STRING" };
  }
  return awsStore(env) ?? { url: DEFAULT_STORE_URL, source: "default" };
}

/** A `dynamodb:` store from the AWS variables, when they name an endpoint or a region with credentials. */
function awsStore(env: NodeJS.ProcessEnv): StoreChoice | undefined {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const regionVariable = env.AWS_REGION
    ? "AWS_REGION"
    : env.AWS_DEFAULT_REGION
      ? "AWS_DEFAULT_REGION"
      : undefined;
  const credentialVariable = env.AWS_ACCESS_KEY_ID
    ? "AWS_ACCESS_KEY_ID"
    : env.AWS_PROFILE
      ? "AWS_PROFILE"
      : undefined;
  if (!endpoint && !(regionVariable && credentialVariable)) return undefined;
  const params = new URLSearchParams();
  // The SDK reads AWS_REGION itself, but not AWS_DEFAULT_REGION: pass the region on.
  if (regionVariable) params.set("region", env[regionVariable]!);
  let host = "";
  if (endpoint) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch (cause) {
      throw new TableKitError("InvalidStoreUrl", `AWS_ENDPOINT_URL_DYNAMODB is not a URL: ${endpoint}`, {
        cause,
      });
    }
    if (!/^https?:$/.test(url.protocol)) {
      throw new TableKitError("InvalidStoreUrl", `AWS_ENDPOINT_URL_DYNAMODB must be http(s): ${endpoint}`);
    }
    host = `//${url.host}`;
    if (url.protocol === "https:") params.set("tls", "true");
  }
  const query = params.size > 0 ? `?${params}` : "";
  const names = [
    endpoint ? "AWS_ENDPOINT_URL_DYNAMODB" : undefined,
    regionVariable,
    endpoint ? undefined : credentialVariable,
  ];
  return { url: `dynamodb:${host}${query}`, source: names.filter((n) => n !== undefined).join(", ") };
}

/** The URL as it may be shown: an account key, a shared access signature or a signature replaced by `…`. */
export function displayStoreUrl(url: string): string {
  return url
    .replace(/((?:AccountKey|SharedAccessSignature)=)[^;]*/gi, "$1…")
    .replace(/([?&]sig=)[^&;]*/gi, "$1…");
}

/** `--verbose`: every command says which store it opened, and what named it. */
let verbose = false;
export function setVerbose(on: boolean): void {
  verbose = on;
}

/**
 * Says on stderr which store a command opens when `--store` did not name it: always when it is
 * about to create the default database file in the working directory (never a surprise), else only
 * with `--verbose` (a store from the environment is the user's own setting, not news on every command).
 */
export function announceStore(choice: StoreChoice, stderr: Channel): void {
  if (choice.source === "--store" && !verbose) return;
  const createsDefault = choice.source === "default" && !existsSync(DEFAULT_STORE_FILE);
  if (!verbose && !createsDefault) return;
  const from =
    choice.source === "default"
      ? "the default; name another with --store"
      : choice.source === "--store"
        ? "from --store"
        : `from ${choice.source}`;
  stderr.line(stderr.style.dim(`store ${displayStoreUrl(choice.url)} (${from})`));
}

/** The file the default store URL names, relative to the working directory. */
const DEFAULT_STORE_FILE = DEFAULT_STORE_URL.slice("file:".length);
