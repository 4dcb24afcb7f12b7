import { describe, expect, it } from 'vitest';
import { MAX_UI_SESSIONS, UI_COOKIE, UiSessions } from './ui-sessions.js';

function cookieOf(setCookie: string): { cookie: string } {
  return { cookie: setCookie.split(';')[0] ?? '' };
}

describe('UiSessions', () => {
  it('finds a session by its signed cookie until it expires', () => {
    let now = 1_000;
    const sessions = new UiSessions({ nowMs: () => now, ttlMs: 60_000 });
    const { session, setCookie } = sessions.create();
    expect(setCookie).toMatch(new RegExp(`^${UI_COOKIE}=[\\w-]+\\.[\\w-]+; HttpOnly; SameSite=Strict; Path=/ui; Max-Age=60$`));
    expect(sessions.find(cookieOf(setCookie))).toBe(session);
    now += 60_000;
    expect(sessions.find(cookieOf(setCookie))).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('refuses a cookie whose signature or id was changed, and one from another process', () => {
    const sessions = new UiSessions({ nowMs: () => 0 });
    const { setCookie } = sessions.create();
    const { cookie } = cookieOf(setCookie);
    const flipped = cookie.slice(0, -1) + (cookie.endsWith('A') ? 'B' : 'A');
    expect(sessions.find({ cookie: flipped })).toBeUndefined();
    expect(sessions.find({ cookie: cookie.replace('=', '=x') })).toBeUndefined();
    expect(new UiSessions({ nowMs: () => 0 }).find({ cookie })).toBeUndefined();
    expect(sessions.find({ cookie: `other=1; ${cookie}` })).toBeDefined();
  });

  it('checks the CSRF token, ends a session on logout, and keeps a bounded number', () => {
    const sessions = new UiSessions({ nowMs: () => 0 });
    const first = sessions.create();
    expect(sessions.csrfMatches(first.session, first.session.csrfToken)).toBe(true);
    expect(sessions.csrfMatches(first.session, undefined)).toBe(false);
    expect(sessions.csrfMatches(first.session, 'x')).toBe(false);
    expect(sessions.end(first.session)).toContain('Max-Age=0');
    expect(sessions.find(cookieOf(first.setCookie))).toBeUndefined();
    const made = Array.from({ length: MAX_UI_SESSIONS + 1 }, () => sessions.create());
    expect(sessions.size).toBe(MAX_UI_SESSIONS);
    expect(sessions.find(cookieOf(made[0]?.setCookie ?? ''))).toBeUndefined();
    expect(sessions.find(cookieOf(made.at(-1)?.setCookie ?? ''))).toBeDefined();
  });
});
