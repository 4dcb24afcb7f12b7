import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { homeDirOf } from './home-dir.js';

describe('homeDirOf', () => {
  it('takes HOME, trimmed', () => {
    expect(homeDirOf({ HOME: ' /home/ada ' })).toBe('/home/ada');
  });

  it("falls back to the operating system's home when HOME is unset or blank", () => {
    expect(homeDirOf({})).toBe(os.homedir());
    expect(homeDirOf({ HOME: '  ' })).toBe(os.homedir());
  });
});
