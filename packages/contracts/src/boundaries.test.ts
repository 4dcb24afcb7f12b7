/**
 * The workspace lint must reject impure code in pure packages (docs/architecture.md). These tests lint virtual files
 * placed in this pure package through the real root ESLint config, so a weakened rule fails here.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const workspaceRoot = path.resolve(import.meta.dirname, '../../..');
const probePath = path.join(workspaceRoot, 'packages/contracts/src/lint-probe.ts');

let eslint: ESLint;

// The first lint loads the Nx plugin and builds the project graph: seconds on a cold clone.
beforeAll(async () => {
  eslint = new ESLint({ cwd: workspaceRoot });
  await eslint.lintText('export {};\n', { filePath: probePath });
}, 120_000);

async function ruleIdsFor(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: probePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('pure package boundaries', () => {
  it('rejects a node: builtin import', async () => {
    expect(await ruleIdsFor("import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n")).toContain(
      'no-restricted-imports',
    );
  });

  it('rejects a bare builtin import', async () => {
    expect(await ruleIdsFor("import os from 'os';\nexport const cpus = os.cpus;\n")).toContain('no-restricted-imports');
  });

  it('rejects an io library', async () => {
    expect(await ruleIdsFor("import { request } from 'undici';\nexport const send = request;\n")).toContain(
      'no-restricted-imports',
    );
  });

  it('rejects reading the clock, randomness and the environment', async () => {
    const ids = await ruleIdsFor(
      'export const now = Date.now();\nexport const roll = Math.random();\nexport const home = process.env.HOME;\n',
    );
    expect(ids.filter((id) => id === 'no-restricted-properties')).toHaveLength(2);
    expect(ids).toContain('no-restricted-globals');
  });

  it('rejects importing an io package', async () => {
    expect(
      await ruleIdsFor("import { openAuthProfileStore } from '@understudy/auth-profile-store';\nexport const open = openAuthProfileStore;\n"),
    ).toContain('@nx/enforce-module-boundaries');
  });

  it.each(['contracts', 'error-classifier', 'candidate-chain', 'cooldown-scheduler', 'config'])(
    'applies the purity rules to every pure package: %s',
    async (name) => {
      const [result] = await eslint.lintText("import fs from 'node:fs';\nexport const exists = fs.existsSync;\n", {
        filePath: path.join(workspaceRoot, 'packages', name, 'src/lint-probe.ts'),
      });
      expect(result?.messages.map((message) => message.ruleId)).toContain('no-restricted-imports');
    },
  );

  it('accepts pure code', async () => {
    expect(await ruleIdsFor('export const double = (value: number): number => value * 2;\n')).toEqual([]);
  });
});

describe('tool boundaries', () => {
  const clientImport = "import { emulatorControl } from '@understudy/provider-emulator/client';\nexport const control = emulatorControl;\n";
  const boundaryErrors = async (file: string): Promise<string[]> => {
    const [result] = await eslint.lintText(clientImport, { filePath: path.join(workspaceRoot, file) });
    return (result?.messages ?? []).map((message) => message.ruleId ?? message.message).filter((id) => id === '@nx/enforce-module-boundaries');
  };

  it.each(['packages/providers/src/lint-probe.ts', 'packages/fallback-runner/src/lint-probe.ts', 'apps/gateway/src/lint-probe.ts', 'apps/cli/src/lint-probe.ts'])(
    'rejects the emulator client in published code: %s',
    async (file) => {
      expect(await boundaryErrors(file)).toEqual(['@nx/enforce-module-boundaries']);
    },
  );

  it('rejects the emulator client in a pure package, its tests included', async () => {
    expect(await boundaryErrors('packages/error-classifier/src/lint-probe.test.ts')).toEqual(['@nx/enforce-module-boundaries']);
  });

  it.each([
    'packages/providers/src/lint-probe.test.ts',
    'packages/providers/src/test-support/lint-probe.ts',
    'packages/fallback-runner/src/lint-probe.test.ts',
    'apps/gateway/src/test-support/lint-probe.ts',
    'apps/gateway/src/demo.ts',
    'tools/bench/src/lint-probe.ts',
  ])('accepts the emulator client in test code, the unpublished demo and other tools: %s', async (file) => {
    expect(await boundaryErrors(file)).toEqual([]);
  });
});
