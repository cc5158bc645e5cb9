import { randomUUID } from "node:crypto";
import { TableKitError } from "../../model/index.js";

/**
 * Leases on blobs and containers, as the Blob service keeps them ("Lease Blob", "Lease Container"):
 * the state machine as pure functions over a stored record, so every backend that keeps leases
 * itself (embedded) applies the same rules inside its own write transaction. Expiry is by the
 * clock: a record holds times, never timers, so it survives a restart.
 */

export type LeaseState = "available" | "leased" | "expired" | "breaking" | "broken";
export type LeaseStatus = "locked" | "unlocked";
export type LeaseDuration = "infinite" | "fixed";

/** A lease as a backend stores it. */
export interface StoredLease {
  readonly id: string;
  /** Seconds, or -1: infinite. */
  readonly duration: number;
  /** When a fixed lease expires (ms since the epoch). */
  readonly expiresAt?: number;
  /** Set by a break: the lease is breaking until then, broken after. */
  readonly breakAt?: number;
}

/** What properties and listings report of a lease. */
export interface LeaseView {
  readonly state: LeaseState;
  readonly status: LeaseStatus;
  /** Only while leased. */
  readonly duration?: LeaseDuration;
}

export type LeaseAction =
  | { readonly action: "acquire"; readonly duration: number; readonly proposedId?: string }
  | { readonly action: "renew"; readonly id: string }
  | { readonly action: "change"; readonly id: string; readonly proposedId: string }
  | { readonly action: "release"; readonly id: string }
  | { readonly action: "break"; readonly breakPeriod?: number };

/** A lease operation's answer: the lease id (not for break), and for break the seconds left. */
export interface LeaseOutcome {
  readonly leaseId?: string;
  readonly leaseTime?: number;
}

export function leaseState(lease: StoredLease | undefined, now: number): LeaseState {
  if (!lease) return "available";
  if (lease.breakAt !== undefined) return now < lease.breakAt ? "breaking" : "broken";
  if (lease.duration === -1 || now < (lease.expiresAt ?? 0)) return "leased";
  return "expired";
}

export function leaseView(lease: StoredLease | undefined, now: number): LeaseView {
  const state = leaseState(lease, now);
  const locked = state === "leased" || state === "breaking";
  return {
    state,
    status: locked ? "locked" : "unlocked",
    ...(state === "leased" ? { duration: lease?.duration === -1 ? "infinite" : "fixed" } : {}),
  };
}

function leaseError(code: ConstructorParameters<typeof TableKitError>[0], message: string): TableKitError {
  return new TableKitError(code, message);
}

const NOT_PRESENT = () =>
  leaseError("LeaseNotPresentWithLeaseOperation", "There is currently no lease on the resource.");
const MISMATCH = () =>
  leaseError(
    "LeaseIdMismatchWithLeaseOperation",
    "The lease ID specified did not match the lease ID for the resource.",
  );

/**
 * Applies a lease operation to the stored lease at `now`; `modifiedAt` is when the resource last
 * changed (an expired lease renews only if nothing wrote since it expired). Returns the record to
 * store (undefined: none) and the answer; throws the service's 409 codes.
 */
export function applyLease(
  lease: StoredLease | undefined,
  op: LeaseAction,
  now: number,
  modifiedAt: number,
): { lease: StoredLease | undefined; outcome: LeaseOutcome } {
  const state = leaseState(lease, now);
  const fresh = (id: string, duration: number): StoredLease =>
    duration === -1 ? { id, duration } : { id, duration, expiresAt: now + duration * 1000 };
  switch (op.action) {
    case "acquire": {
      const id = op.proposedId ?? (state === "leased" ? undefined : randomUUID());
      if (state === "breaking" && id !== lease!.id) {
        throw leaseError("LeaseAlreadyPresent", "There is already a lease present.");
      }
      if (state === "breaking") {
        throw leaseError(
          "LeaseIsBreakingAndCannotBeAcquired",
          "There is already a lease present; it is breaking and cannot be acquired.",
        );
      }
      if (state === "leased" && (id === undefined || id !== lease!.id)) {
        throw leaseError("LeaseAlreadyPresent", "There is already a lease present.");
      }
      const next = fresh(id!, op.duration);
      return { lease: next, outcome: { leaseId: next.id } };
    }
    case "renew": {
      if (!lease || state === "available") throw NOT_PRESENT();
      if (op.id !== lease.id) throw MISMATCH();
      if (state === "breaking" || state === "broken") {
        throw leaseError(
          "LeaseIsBrokenAndCannotBeRenewed",
          "The lease ID matched, but the lease has been broken explicitly and cannot be renewed.",
        );
      }
      if (state === "expired" && modifiedAt > (lease.expiresAt ?? 0)) throw MISMATCH();
      return { lease: fresh(lease.id, lease.duration), outcome: { leaseId: lease.id } };
    }
    case "change": {
      if (!lease || state === "available") throw NOT_PRESENT();
      if (op.id !== lease.id && op.proposedId !== lease.id) throw MISMATCH();
      if (state === "breaking") {
        throw leaseError(
          "LeaseIsBreakingAndCannotBeChanged",
          "The lease ID matched, but the lease is currently in breaking state and cannot be changed.",
        );
      }
      if (state !== "leased") throw NOT_PRESENT();
      return { lease: { ...lease, id: op.proposedId }, outcome: { leaseId: op.proposedId } };
    }
    case "release": {
      if (!lease || state === "available") throw NOT_PRESENT();
      if (op.id !== lease.id) throw MISMATCH();
      return { lease: undefined, outcome: { leaseId: lease.id } };
    }
    case "break": {
      if (!lease || state === "available" || state === "expired") throw NOT_PRESENT();
      if (state === "broken") return { lease, outcome: { leaseTime: 0 } };
      // Until the lease would end anyway: a fixed lease's expiry, a breaking lease's break time.
      const end = state === "breaking" ? lease.breakAt! : lease.duration === -1 ? Infinity : lease.expiresAt!;
      const asked = op.breakPeriod === undefined ? end : now + op.breakPeriod * 1000;
      const breakAt = Math.min(asked, end) === Infinity ? now : Math.min(asked, end);
      const { expiresAt: _expired, ...rest } = lease;
      return {
        lease: { ...rest, breakAt },
        // Whole seconds, rounded as Azurite rounds them (the service documents only "seconds").
        outcome: { leaseTime: Math.max(0, Math.round((breakAt - now) / 1000)) },
      };
    }
  }
}

/**
 * Checks a call on a leased resource: a write, delete or property change (`write`) needs the active
 * lease's id; any call that names an id needs it to be the active lease's.
 */
export function checkLease(
  lease: StoredLease | undefined,
  leaseId: string | undefined,
  use: "write" | "read",
  now: number,
  resource: "Blob" | "Container" = "Blob",
): void {
  const state = leaseState(lease, now);
  const active = state === "leased" || state === "breaking";
  if (leaseId === undefined) {
    if (active && use === "write") {
      throw new TableKitError(
        "LeaseIdMissing",
        `There is currently a lease on the ${resource.toLowerCase()} and no lease ID was specified in the request.`,
      );
    }
    return;
  }
  if (!active) {
    throw new TableKitError(
      `LeaseNotPresentWith${resource}Operation`,
      `There is currently no lease on the ${resource.toLowerCase()}.`,
    );
  }
  if (lease!.id.toLowerCase() !== leaseId.toLowerCase()) {
    throw new TableKitError(
      `LeaseIdMismatchWith${resource}Operation`,
      `The lease ID specified did not match the lease ID for the ${resource.toLowerCase()}.`,
    );
  }
}

/** Checks a lease action's arguments once, in the core: durations 15–60 s or -1, break periods 0–60 s. */
export function checkLeaseAction(op: LeaseAction): LeaseAction {
  const bad = (message: string) => new TableKitError("InvalidInput", message);
  const id = (value: unknown, what: string) => {
    if (typeof value !== "string" || value.trim() === "" || value.length > 256) {
      throw bad(`${what} must be a non-empty lease id (a GUID, as the service gives them)`);
    }
  };
  switch (op.action) {
    case "acquire":
      if (op.duration !== -1 && !(Number.isInteger(op.duration) && op.duration >= 15 && op.duration <= 60)) {
        throw bad(`A lease lasts 15 to 60 seconds, or -1 (infinite); not ${String(op.duration)}`);
      }
      if (op.proposedId !== undefined) id(op.proposedId, "proposedLeaseId");
      return op;
    case "break":
      if (
        op.breakPeriod !== undefined &&
        !(Number.isInteger(op.breakPeriod) && op.breakPeriod >= 0 && op.breakPeriod <= 60)
      ) {
        throw bad(`A break period is 0 to 60 seconds; not ${String(op.breakPeriod)}`);
      }
      return op;
    case "change":
      id(op.id, "leaseId");
      id(op.proposedId, "proposedLeaseId");
      return op;
    case "renew":
    case "release":
      id(op.id, "leaseId");
      return op;
    default:
      throw bad(`Unknown lease action ${String((op as { action?: unknown }).action)}`);
  }
}
