// The workspace's projects as the release sees them: one list for the package checks and the release rehearsal.
import fs from 'node:fs';
import path from 'node:path';

/** The repository root (this file is scripts/lib/workspace-packages.mjs). */
export const root = path.resolve(import.meta.dirname, '..', '..');

/** The folders that hold workspace projects (pnpm-workspace.yaml's globs). */
export const projectGroups = ['packages', 'apps', 'tools', 'examples'];

/**
 * Every workspace project: `{ dir, name, version, private, manifest }`, `dir` relative to the root.
 * Published packages are those without `"private": true`.
 */
export function workspaceProjects() {
  return projectGroups.flatMap((group) => {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) return [];
    return fs
      .readdirSync(groupDir)
      .map((name) => path.join(group, name))
      .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')))
      .map((dir) => {
        const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
        return { dir, name: manifest.name, version: manifest.version, private: manifest.private === true, manifest };
      });
  });
}

/** The packages the release publishes. */
export function publishedPackages() {
  return workspaceProjects().filter((project) => !project.private);
}

/** Runs at most `limit` of `tasks` (functions returning promises) at a time; resolves with their results in order. */
export async function runLimited(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
