import nx from '@nx/eslint-plugin';

/**
 * Workspace lint rules. The dependency matrix of docs/architecture.md is enforced by
 * `@nx/enforce-module-boundaries`; Node builtins and io libraries are kept out
 * of pure packages by `no-restricted-imports`, which (unlike Nx's
 * `bannedExternalImports`) also sees `node:*` specifiers.
 */
const ioLibraries = ['undici', 'better-sqlite3', 'kysely', 'pino', 'pino-pretty', 'prom-client', 'eventsource-parser'];
const builtinPatterns = ['node:*', 'fs', 'fs/*', 'path', 'os', 'http', 'https', 'net', 'tls', 'child_process', 'crypto', 'util', 'stream', 'events', 'worker_threads', 'process', 'timers', 'timers/*', 'dns', 'url'];

/**
 * Which tag may import which (the table of docs/architecture.md). Production code follows it as written: no
 * library, app or tool imports a `type:tool` project, except that a tool may drive another tool.
 */
const depConstraints = [
  { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure'] },
  { sourceTag: 'type:io', onlyDependOnLibsWithTags: ['type:pure'] },
  { sourceTag: 'type:core', onlyDependOnLibsWithTags: ['type:pure'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:pure', 'type:io', 'type:core'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:pure', 'type:io', 'type:core', 'type:tool'] },
  // examples/: programs written the way a consumer of the published packages writes them
  { sourceTag: 'type:example', onlyDependOnLibsWithTags: ['type:pure', 'type:io', 'type:core', 'type:tool'] },
];

/**
 * Test code (`*.test.ts`, `test-support/`) of io, core and app projects may also import `type:tool` projects: the
 * provider emulator's typed control client (`@understudy/provider-emulator/client`) is how their end-to-end
 * tests drive their upstream. Their published code still may not (docs/architecture.md, "Packages and layers").
 */
const testDepConstraints = depConstraints.map((constraint) =>
  ['type:io', 'type:core', 'type:app'].includes(constraint.sourceTag)
    ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:tool'] }
    : constraint,
);

const boundaries = (constraints) => ['error', { enforceBuildableLibDependency: true, allow: [], depConstraints: constraints }];

/** The files that count as test code for {@link testDepConstraints}. */
const testFiles = ['**/*.test.ts', '**/test-support/**/*.ts'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/coverage', '**/vitest.config.*.timestamp*', '**/node_modules'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.jsx'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(depConstraints),
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  { files: testFiles, rules: { '@nx/enforce-module-boundaries': boundaries(testDepConstraints) } },
];

/**
 * For an app's own development programs that are not published and play a test's part (the gateway's
 * `src/demo.ts`, excluded from its package files): they may import `type:tool` projects as its tests do.
 * Spread by that app's config with the files, relative to it.
 */
export const unpublishedProgramConfig = (files) => [{ files, rules: { '@nx/enforce-module-boundaries': boundaries(testDepConstraints) } }];

/** Library packages log through the Logger port, never the console. Spread by each package's config. */
export const libraryConfig = [
  {
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: { 'no-console': 'error' },
  },
];


/**
 * Pure packages (tag `type:pure`): no I/O, no clock, no randomness, no environment (docs/architecture.md). Each pure
 * package's own `eslint.config.mjs` spreads this; ESLint resolves `files` relative to that package.
 */
export const pureConfig = [
  {
    // Pure packages: no I/O, no clock, no randomness, no environment (docs/architecture.md).
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ioLibraries.map((name) => ({ name, message: 'Pure packages take no io library: move this to an io package behind a port.' })),
          patterns: [{ group: builtinPatterns, message: 'Pure packages import no Node builtins: take the value as a parameter instead.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Pure packages read no environment: take options as parameters.' },
        { name: 'Buffer', message: 'Pure packages use no Node globals.' },
        { name: 'setTimeout', message: 'Pure packages do not schedule: only the runner sleeps, through the Clock port.' },
        { name: 'setInterval', message: 'Pure packages do not schedule.' },
        { name: 'fetch', message: 'Pure packages do no I/O.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Pure packages take nowMs as a parameter.' },
        { object: 'Math', property: 'random', message: 'Pure packages take a random source as a parameter.' },
        { object: 'performance', property: 'now', message: 'Pure packages take nowMs as a parameter.' },
      ],
      'no-console': 'error',
    },
  },
];
