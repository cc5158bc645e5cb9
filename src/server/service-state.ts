import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { StoredAccessPolicy } from "../store/index.js";

/** One CORS rule of the service properties. */
export interface CorsRule {
  readonly allowedOrigins: string;
  readonly allowedMethods: string;
  readonly allowedHeaders: string;
  readonly exposedHeaders: string;
  readonly maxAgeInSeconds: number;
}

/** Service properties by account: the XML sections as set (Logging, HourMetrics, …) and the CORS rules. */
interface AccountState {
  sections: Record<string, string>;
  cors: CorsRule[];
  /** Stored access policies by lower-cased table, queue or container name. */
  acls: Record<string, StoredAccessPolicy[]>;
  /** What the service keeps of a queue or container beside the store: its metadata, a container's public access. */
  resources?: Record<string, ResourceState>;
}

/** A queue's or container's properties kept by the server (the ports have no place for them). */
export interface ResourceState {
  readonly metadata?: Readonly<Record<string, string>>;
  /** A container's public access level: anonymous reads of its blobs (`blob`) and listing (`container`). */
  readonly publicAccess?: "blob" | "container";
}

/**
 * What a service keeps beside the store: service properties (CORS included), each table's, queue's
 * or container's stored access policies, and queue and container metadata. Kept in one JSON file beside the database when the server has
 * a location (written whole, then renamed, so a crash leaves the old or the new file), in memory
 * otherwise.
 */
export class ServiceState {
  private readonly accounts: Record<string, AccountState>;

  constructor(private readonly file: string | undefined) {
    this.accounts = file ? load(file) : {};
  }

  private account(name: string): AccountState {
    this.accounts[name] ??= { sections: {}, cors: [], acls: {} };
    return this.accounts[name]!;
  }

  sections(account: string): Readonly<Record<string, string>> {
    return this.account(account).sections;
  }

  cors(account: string): readonly CorsRule[] {
    return this.accounts[account]?.cors ?? [];
  }

  setProperties(account: string, sections: Record<string, string>, cors: CorsRule[] | undefined): void {
    const state = this.account(account);
    Object.assign(state.sections, sections);
    if (cors) state.cors = cors;
    this.save();
  }

  acl(account: string, table: string): readonly StoredAccessPolicy[] {
    return this.accounts[account]?.acls[table.toLowerCase()] ?? [];
  }

  setAcl(account: string, table: string, policies: StoredAccessPolicy[]): void {
    this.account(account).acls[table.toLowerCase()] = policies;
    this.save();
  }

  /** A deleted table, queue or container loses its policies and properties (one created later under the name starts without any). */
  dropAcl(account: string, table: string): void {
    const state = this.accounts[account];
    const key = table.toLowerCase();
    const acl = state?.acls && Object.hasOwn(state.acls, key);
    const resource = state?.resources && Object.hasOwn(state.resources, key);
    if (acl) delete state.acls[key];
    if (resource) delete state.resources![key];
    if (acl || resource) this.save();
  }

  resource(account: string, name: string): ResourceState {
    const resources = this.accounts[account]?.resources;
    return (resources && Object.hasOwn(resources, name) ? resources[name] : undefined) ?? {};
  }

  setResource(account: string, name: string, state: ResourceState): void {
    const account_ = this.account(account);
    account_.resources ??= {};
    account_.resources[name] = state;
    this.save();
  }

  private save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.accounts));
    renameSync(temporary, this.file);
  }
}

function load(file: string): Record<string, AccountState> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, AccountState>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw err;
  }
}
