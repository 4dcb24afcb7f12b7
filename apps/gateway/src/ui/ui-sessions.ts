/**
 * Login sessions of the status page (docs/operations.md#status-page). Logging in with the admin token creates a
 * session: a random id kept in this process's memory with its expiry and a per-session CSRF token. The cookie
 * carries `<id>.<HMAC-SHA256 of the id>` under a key made at start-up, never the token, so a cookie is worth
 * nothing after a restart, after logout, or once it expired. Memory is bounded: at most
 * {@link MAX_UI_SESSIONS} sessions, the oldest dropped first.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The cookie's name. */
export const UI_COOKIE = 'understudy_ui';
/** How long a session lasts from login, ms (8 hours). @default */
const UI_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** The most sessions kept at once; a login beyond it ends the oldest. */
export const MAX_UI_SESSIONS = 64;

/** A live session. */
export interface UiSession {
  readonly id: string;
  /** Sent back by the page in `x-understudy-csrf` with every action. */
  readonly csrfToken: string;
  /** Epoch ms. */
  readonly expiresAtMs: number;
}

function cookieValueOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === UI_COOKIE) return rest.join('=');
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The sessions of one gateway process. */
export class UiSessions {
  readonly #key = randomBytes(32);
  readonly #sessions = new Map<string, UiSession>();
  readonly #nowMs: () => number;
  readonly #ttlMs: number;

  /** @param options `nowMs` the clock (epoch ms); `ttlMs` @default {@link UI_SESSION_TTL_MS}. */
  constructor(options: { readonly nowMs: () => number; readonly ttlMs?: number | undefined }) {
    this.#nowMs = options.nowMs;
    this.#ttlMs = options.ttlMs ?? UI_SESSION_TTL_MS;
  }

  #sign(id: string): string {
    return createHmac('sha256', this.#key).update(id).digest('base64url');
  }

  /** Starts a session; returns it and the `Set-Cookie` header value that carries it. */
  create(): { readonly session: UiSession; readonly setCookie: string } {
    this.#prune();
    while (this.#sessions.size >= MAX_UI_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    const session: UiSession = {
      id: randomBytes(24).toString('base64url'),
      csrfToken: randomBytes(24).toString('base64url'),
      expiresAtMs: this.#nowMs() + this.#ttlMs,
    };
    this.#sessions.set(session.id, session);
    const maxAge = Math.floor(this.#ttlMs / 1000);
    return { session, setCookie: `${UI_COOKIE}=${session.id}.${this.#sign(session.id)}; HttpOnly; SameSite=Strict; Path=/ui; Max-Age=${maxAge}` };
  }

  /** The live session a request's cookie names, if any (a bad signature, an unknown or expired id: none). */
  find(headers: IncomingHttpHeaders): UiSession | undefined {
    const value = cookieValueOf(headers);
    const dot = value?.lastIndexOf('.') ?? -1;
    if (value === undefined || dot <= 0) return undefined;
    const id = value.slice(0, dot);
    if (!sameText(value.slice(dot + 1), this.#sign(id))) return undefined;
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    if (session.expiresAtMs <= this.#nowMs()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  /** True when `presented` is the session's CSRF token (constant time). */
  csrfMatches(session: UiSession, presented: string | undefined): boolean {
    return presented !== undefined && sameText(presented, session.csrfToken);
  }

  /** Ends a session; returns the `Set-Cookie` value that removes the cookie. */
  end(session: UiSession | undefined): string {
    if (session !== undefined) this.#sessions.delete(session.id);
    return `${UI_COOKIE}=; HttpOnly; SameSite=Strict; Path=/ui; Max-Age=0`;
  }

  /** How many sessions are live (tests, and the bound). */
  get size(): number {
    this.#prune();
    return this.#sessions.size;
  }

  #prune(): void {
    const nowMs = this.#nowMs();
    for (const [id, session] of this.#sessions) if (session.expiresAtMs <= nowMs) this.#sessions.delete(id);
  }
}
