import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diagnoseAuthStore, openAuthProfileStore, repairAuthStorePermissions, statePathsUnder } from './index.js';
import { makeTempStateRoot, modeOf, removeTempStateRoot } from './test-support/temp-state.js';

let root: string;

beforeEach(() => {
  root = makeTempStateRoot('understudy-doctor-');
  fs.chmodSync(root, 0o700);
});

afterEach(() => removeTempStateRoot(root));

describe('diagnoseAuthStore (understudy doctor)', () => {
  it('reports a missing store with every migration pending, and writes nothing', () => {
    const diagnosis = diagnoseAuthStore({ stateDir: root, agentId: 'main' });
    expect(diagnosis.database).toEqual({ exists: false, health: 'missing', pendingMigrations: ['0001_initial', '0002_refresh_locks'] });
    expect(diagnosis.permissionProblems).toEqual([]);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('reports a healthy, migrated WAL store', async () => {
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    await store.close();
    expect(diagnoseAuthStore({ stateDir: root, agentId: 'main' }).database).toEqual({ exists: true, health: 'ok', pendingMigrations: [], journalMode: 'wal' });
  });

  it('reports a file that is not a database', () => {
    const paths = statePathsUnder(root, 'main');
    fs.mkdirSync(paths.agentDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(paths.databasePath, 'this is not sqlite at all, just text padding it out to a page'.repeat(100), { mode: 0o600 });
    const diagnosis = diagnoseAuthStore({ stateDir: root, agentId: 'main' });
    expect(diagnosis.database.health).not.toBe('ok');
    expect(diagnosis.database.error).toMatch(/not a database/);
  });

  it('finds group/other access on state folders, the database and legacy secret files, and repairs it to 0700/0600', async () => {
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    await store.close();
    const paths = statePathsUnder(root, 'main');
    fs.chmodSync(paths.agentDir, 0o755);
    fs.chmodSync(paths.databasePath, 0o644);
    fs.writeFileSync(`${paths.legacy.authProfiles}.imported`, '{}', { mode: 0o644 });
    fs.writeFileSync(paths.legacy.authState, '{}', { mode: 0o640 });
    const problems = diagnoseAuthStore({ stateDir: root, agentId: 'main' }).permissionProblems;
    // Reading a WAL database creates its -wal/-shm files with the database file's (too open) mode: they are
    // reported as well.
    expect(problems.filter((problem) => !/-(wal|shm)$/.test(problem.path))).toEqual([
      { path: paths.agentDir, mode: 0o755, expected: 0o700 },
      { path: paths.databasePath, mode: 0o644, expected: 0o600 },
      { path: `${paths.legacy.authProfiles}.imported`, mode: 0o644, expected: 0o600 },
      { path: paths.legacy.authState, mode: 0o640, expected: 0o600 },
    ]);
    expect(repairAuthStorePermissions(paths)).toEqual(problems);
    for (const suffix of ['-wal', '-shm']) if (fs.existsSync(paths.databasePath + suffix)) expect(modeOf(paths.databasePath + suffix)).toBe(0o600);
    expect(modeOf(paths.agentDir)).toBe(0o700);
    expect(modeOf(paths.databasePath)).toBe(0o600);
    expect(diagnoseAuthStore({ stateDir: root, agentId: 'main' }).permissionProblems).toEqual([]);
    expect(path.basename(diagnoseAuthStore({ stateDir: root, agentId: 'main' }).legacyFiles[0]?.path ?? '')).toBe('auth-state.json');
  });
});
