/**
 * Who may use the explorer: whoever holds the random token printed with its URL. The first visit
 * carries it in the query and gets it back as a cookie (HttpOnly, SameSite=Strict); every request
 * is checked, in constant time. On loopback, the Host header must name loopback too, so a web page
 * elsewhere cannot reach the explorer through a rebound DNS name.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

const COOKIE = "tablekit_explorer";

/** A new access token: 32 random bytes, base64url. */
export function newAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function sameToken(given: string | undefined | null, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries in its cookie. */
export function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === COOKIE) return value.join("=");
  }
  return undefined;
}

/** The Set-Cookie header that keeps the token for the explorer's path. */
export function tokenCookie(token: string, base: string): string {
  return `${COOKIE}=${token}; Path=${base || "/"}; HttpOnly; SameSite=Strict`;
}

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/** False when the explorer listens on loopback and the request names another host. */
export function hostAllowed(req: IncomingMessage, loopbackOnly: boolean): boolean {
  return !loopbackOnly || LOOPBACK_HOST.test(req.headers.host ?? "");
}

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}
