import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, runStoreCli } from '../test-support/run-store-cli.js';
import type { TempHome } from '../test-support/run-store-cli.js';

let temp: TempHome;
let file: string;

beforeEach(() => {
  temp = makeTempHome();
  file = path.join(temp.home, 'understudy.json5');
});

afterEach(() => temp.remove());

const validate = (argv: readonly string[], env: Record<string, string> = {}) => runStoreCli(['config', 'validate', ...argv], { home: temp.home, env });

describe('understudy config validate', () => {
  it('accepts JSON5 with comments and ${ENV} placeholders', async () => {
    fs.writeFileSync(file, "// hi\n{ models: { providers: { openai: { baseUrl: 'https://api.openai.com/v1', api: 'openai-completions', apiKey: '${OPENAI_KEY}' } } }, }\n");
    const result = await validate(['--config', file], { OPENAI_KEY: 'sk-test-config-0001' });
    expect(result).toEqual({ code: 0, stdout: `Config OK: ${file}\n`, stderr: '' });
  });

  it('treats a missing default config as the empty config, and a missing --config / UNDERSTUDY_CONFIG file as bad input', async () => {
    expect((await validate([])).stdout).toContain('defaults apply');
    expect(await validate(['--config', file])).toMatchObject({ code: 2, stdout: '' });
    const fromEnv = await validate([], { UNDERSTUDY_CONFIG: file });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('from UNDERSTUDY_CONFIG');
  });

  it.each([
    ['an unknown key', '{ gateway: { prot: 1 } }', 'gateway.prot'],
    ['a JSON5 syntax error', '{ gateway: { port: 1 }\n  oops }', 'line 2'],
    ['an unset placeholder', "{ gateway: { auth: { token: '${NOT_SET_ANYWHERE}' } } }", 'NOT_SET_ANYWHERE'],
  ])('rejects %s with exit 2, naming where', async (_label, text, where) => {
    fs.writeFileSync(file, text);
    const human = await validate(['--config', file]);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain(where);
    const json = await validate(['--config', file, '--json']);
    expect(json.code).toBe(2);
    const document = JSON.parse(json.stdout);
    expect(document.valid).toBe(false);
    expect(JSON.stringify(document.issues)).toContain(where);
  });

  it('never echoes a misplaced secret from an invalid config', async () => {
    fs.writeFileSync(file, "{ gateway: { port: 'sk-test-config-leak-0002' } }");
    const result = await validate(['--config', file, '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain('sk-test-config-leak-0002');
  });
});

describe('understudy config schema', () => {
  it('prints the JSON Schema of the config file alone on stdout', async () => {
    const result = await runStoreCli(['config', 'schema'], { home: temp.home });
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.title).toBe('understudy config');
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['auth', 'agents', 'models', 'gateway', 'retry']));
  });
});
