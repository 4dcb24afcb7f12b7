import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@understudy/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFileError, loadConfig, parseConfigText, resolveConfigLocation } from './config-loader.js';
import { parseRuntimeEnv } from './runtime-env.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-config-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('resolveConfigLocation (docs/configuration.md: --config, else UNDERSTUDY_CONFIG, else ~/.understudy/understudy.json5)', () => {
  it.each([
    ['the flag wins', { flag: '/etc/u.json5', env: { UNDERSTUDY_CONFIG: '/env.json5' } }, { path: '/etc/u.json5', source: 'flag' }],
    ['then the variable', { env: { UNDERSTUDY_CONFIG: '/env.json5' } }, { path: '/env.json5', source: 'env' }],
    ['a blank variable is ignored', { env: { UNDERSTUDY_CONFIG: '  ' } }, { path: '/home/ada/.understudy/understudy.json5', source: 'default' }],
    ['~ expands to the home folder', { flag: '~/cfg.json5', env: {} }, { path: '/home/ada/cfg.json5', source: 'flag' }],
  ])('%s', (_label, input, expected) => {
    const flag = 'flag' in input ? { flag: input.flag } : {};
    expect(resolveConfigLocation({ ...flag, settings: parseRuntimeEnv(input.env), homeDir: '/home/ada' })).toEqual(expected);
  });
});

describe('loadConfig / parseConfigText', () => {
  it('reads JSON5, expands ${ENV} and fills defaults', () => {
    const file = path.join(dir, 'c.json5');
    fs.writeFileSync(file, "{ gateway: { auth: { token: '${TOKEN}' }, }, /* trailing */ }");
    const loaded = loadConfig({ path: file, source: 'flag' }, { TOKEN: 'tok-test' });
    expect(loaded.found).toBe(true);
    expect(loaded.config.gateway.auth.token).toBe('tok-test');
    expect(loaded.config.gateway.port).toBe(4317);
  });

  it('gives defaults for a missing default file and an empty file', () => {
    expect(loadConfig({ path: path.join(dir, 'none.json5'), source: 'default' }, {}).found).toBe(false);
    expect(parseConfigText('  \n', 'x', {}).gateway.host).toBe('127.0.0.1');
  });

  it('throws ConfigFileError for a missing explicit file and for bad syntax, ConfigError for bad content', () => {
    const missing = (() => { try { loadConfig({ path: path.join(dir, 'none.json5'), source: 'env' }, {}); } catch (error) { return error; } return undefined; })();
    expect(ConfigFileError.isInstance(missing) && missing.code).toBe('config_not_found');
    expect(() => parseConfigText('{ a: ', 'x', {})).toThrow(/not valid JSON5 at line 1/);
    expect(() => parseConfigText('{ nope: 1 }', 'x', {})).toSatisfy((fn: () => unknown) => {
      try { fn(); } catch (error) { return ConfigError.isInstance(error) && error.issues[0]?.path === 'nope'; }
      return false;
    });
  });
});

describe('hostile config files (issue 20, defects 8 and 9)', () => {
  const source = '/srv/understudy.json5';

  it.each([['null'], ['[]'], ['42']])('a root of %s is an error naming the file', (text) => {
    expect(() => parseConfigText(text, source, {})).toThrow(/Invalid config \/srv\/understudy\.json5.*\n.*\(root\): expected an object/);
  });

  it('an unset ${VAR} names the file', () => {
    expect(() => parseConfigText('{ models: { providers: { p: { baseUrl: "${UNSET_BASE}", api: "openai-completions" } } } }', source, {})).toThrow(
      /Invalid config \/srv\/understudy\.json5[\s\S]*UNSET_BASE is not set/,
    );
  });

  it('agents.entries.__proto__ is refused, not silently dropped', () => {
    expect(() => parseConfigText('{ agents: { entries: { __proto__: { model: "a/b" } } } }', source, {})).toThrow(/agents\.entries/);
  });

  it('a config nested 10,000 levels deep gives a config error, not a stack overflow', () => {
    const deep = `${'{ a: '.repeat(10_000)}1${' }'.repeat(10_000)}`;
    expect(() => parseConfigText(`{ x: ${deep} }`, source, {})).toThrow(/Invalid config \/srv\/understudy\.json5/);
  });
});
