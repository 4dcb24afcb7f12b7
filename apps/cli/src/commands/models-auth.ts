/**
 * `understudy models auth add | login | list | remove | clear-cooldown | order get|set|clear`: managing an agent's
 * auth profiles (the model-failover doc "Auth storage", "Rotation order"). A secret is read from stdin
 * (`--key-stdin`; for `--type oauth` that may be the token JSON an issuer returned) or from an environment
 * variable (`--key-env VAR`), never from the command line, and is never printed. `login` runs the OAuth
 * device-authorization grant against the issuer of `models.providers.<id>.oauth` (docs/configuration.md).
 */
import type { Readable } from 'node:stream';
import { Option } from 'commander';
import type { Command } from 'commander';
import { CREDENTIAL_TYPES } from '@understudy/auth-profile-store';
import type { AuthProfileRecord, AuthProfileStore } from '@understudy/auth-profile-store';
import { configuredOrder } from '@understudy/config';
import { Secret, normalizeProviderId, parseProfileId } from '@understudy/contracts';
import type { Credential, CredentialType, ProfileId, UsageStatsMap } from '@understudy/contracts';
import { clearCooldown, resolveProfileOrder } from '@understudy/cooldown-scheduler';
import { oauthCredentialFromJson, registerLoginCommand } from './models-auth-oauth.js';
import { CliError, ExitCode, writeLine } from '../io.js';
import type { CliIo } from '../io.js';
import { isoTime, renderTable, writeJson } from '../output.js';
import { addCommonOptions, cliAction, commandContext, withStore } from '../store-context.js';
import type { CommandContext, CommonOptions } from '../store-context.js';
import { describeProfileState, profileState } from './models-profile-state.js';
import { checkProviderOption, profileIdOption } from './profile-id-rules.js';

interface AddOptions extends CommonOptions {
  readonly provider: string;
  readonly id?: string | undefined;
  readonly type: CredentialType;
  readonly keyStdin?: boolean | undefined;
  readonly keyEnv?: string | undefined;
  readonly refreshEnv?: string | undefined;
  readonly expires?: string | undefined;
  readonly email?: string | undefined;
  readonly projectId?: string | undefined;
  readonly enterpriseUrl?: string | undefined;
}

interface ProviderOptions extends CommonOptions {
  readonly provider: string;
}

const usage = (message: string): CliError => new CliError(message, { exitCode: ExitCode.usage, code: 'bad_input' });

/** Reads a whole stream as text. */
async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A secret from an environment variable named on the command line. */
function secretFromEnv(io: CliIo, variable: string, flag: string): Secret {
  // Not echoed: a value that is not a variable name may be the secret itself, pasted by mistake.
  if (!ENV_NAME.test(variable)) throw usage(`${flag} takes the NAME of an environment variable (letters, digits, _), not a value`);
  const value = io.env[variable];
  if (value === undefined || value.trim() === '') {
    // Only a conventional (upper-case) name is shown: a mixed-case word may be a key pasted in by mistake.
    const shown = /^[A-Z_][A-Z0-9_]{0,63}$/.test(variable) ? ` ${variable}` : '';
    throw usage(`${flag}${shown}: the environment variable is not set or empty`);
  }
  return new Secret(checkCredentialText(value.trim(), flag));
}

/**
 * A credential goes into an HTTP header as one line of visible ASCII: a value with a space, a line break, a
 * control or a non-ASCII character inside would be stored and then fail every request on it. Refused here,
 * nothing stored; the message gives the position, never the value.
 *
 * @throws {CliError} exit code 2 (`bad_input`) naming `flag` and the position of the first bad character.
 */
function checkCredentialText(value: string, flag: string): string {
  const bad = value.search(/[^\x21-\x7e]/);
  if (bad !== -1) {
    throw usage(`${flag}: the credential has a space, a line break, a control or a non-ASCII character at position ${bad + 1}; a key is one line of visible characters, check what you copied`);
  }
  return value;
}

/** An ISO 8601 date or date-time (`2030-01-01`, `2030-01-01T00:00:00Z`, `2030-01-01T02:00:00.5+02:00`). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** `--expires`: epoch milliseconds or an ISO 8601 time. */
function parseExpires(text: string): number {
  const trimmed = text.trim();
  // Date.parse alone takes almost anything (even "sk-test-alpha-0001"), so the ISO shape is checked first.
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : ISO_TIME.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  // Not echoed: a secret pasted after the wrong flag must not reach the terminal.
  if (!Number.isFinite(value)) throw usage('--expires takes epoch milliseconds or an ISO time like 2030-01-01T00:00:00Z');
  return value;
}

/** The credential described by `models auth add` options. */
async function credentialFromOptions(options: AddOptions, io: CliIo): Promise<Credential> {
  const provider = checkProviderOption(options.provider);
  if (options.keyStdin === true && options.keyEnv !== undefined) throw usage('give the secret once: --key-stdin or --key-env, not both');
  if (options.type === 'api_key' && (options.refreshEnv !== undefined || options.expires !== undefined)) {
    throw usage('--refresh-env and --expires apply to --type oauth or token, not api_key');
  }
  if (options.type === 'token' && options.refreshEnv !== undefined) throw usage('--refresh-env applies to --type oauth only');
  if (options.type !== 'oauth' && (options.email !== undefined || options.projectId !== undefined || options.enterpriseUrl !== undefined)) {
    throw usage('--email, --project-id and --enterprise-url apply to --type oauth only');
  }
  let secret: Secret | undefined;
  if (options.keyStdin === true) {
    const text = (await readAll(io.stdin)).replace(/\r?\n$/, '');
    if (text.trim() === '') throw usage('--key-stdin: stdin was empty; pipe the secret in, e.g. `printenv OPENAI_API_KEY | understudy models auth add …`');
    if (options.type === 'oauth' && text.trim().startsWith('{')) {
      if (options.refreshEnv !== undefined) throw usage('the token JSON on stdin already holds the refresh token: drop --refresh-env');
      return oauthCredentialFromJson(text, {
        provider,
        nowMs: Date.now(),
        expires: options.expires === undefined ? undefined : parseExpires(options.expires),
        email: options.email,
        projectId: options.projectId,
        enterpriseUrl: options.enterpriseUrl,
      });
    }
    secret = new Secret(checkCredentialText(text.trim(), '--key-stdin'));
  } else if (options.keyEnv !== undefined) {
    secret = secretFromEnv(io, options.keyEnv, '--key-env');
  }
  const refresh = options.refreshEnv === undefined ? undefined : secretFromEnv(io, options.refreshEnv, '--refresh-env');
  const expires = options.expires === undefined ? undefined : parseExpires(options.expires);
  switch (options.type) {
    case 'api_key':
      if (secret === undefined) throw usage('an api_key needs its key: --key-stdin or --key-env VAR (never on the command line)');
      return { type: 'api_key', provider, key: secret };
    case 'token':
      if (secret === undefined) throw usage('a token needs its value: --key-stdin or --key-env VAR (never on the command line)');
      return { type: 'token', provider, token: secret, ...(expires === undefined ? {} : { expires }) };
    case 'oauth':
      if (secret === undefined && refresh === undefined) {
        throw usage('an oauth profile needs an access token (--key-stdin or --key-env VAR) and/or a refresh token (--refresh-env VAR)');
      }
      return {
        type: 'oauth',
        provider,
        ...(secret === undefined ? {} : { access: secret }),
        ...(refresh === undefined ? {} : { refresh }),
        ...(expires === undefined ? {} : { expires }),
        ...(options.email === undefined ? {} : { email: options.email }),
        ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
        ...(options.enterpriseUrl === undefined ? {} : { enterpriseUrl: options.enterpriseUrl }),
      };
  }
}

/** A profile in `models auth list --json`. */
function listEntry(record: AuthProfileRecord, usageStats: UsageStatsMap, nowMs: number) {
  const stats = usageStats[record.id];
  const view = profileState(stats, nowMs);
  return {
    id: record.id,
    provider: record.provider,
    type: record.type,
    source: record.source,
    email: record.email ?? null,
    hasSecret: record.facts.hasSecret,
    hasRefresh: record.facts.hasRefresh,
    expires: record.facts.expiresAt === undefined ? null : isoTime(record.facts.expiresAt),
    state: view.state,
    stateText: describeProfileState(view),
    lastUsed: stats?.lastUsed === undefined ? null : isoTime(stats.lastUsed),
    createdAt: record.createdAt === undefined ? null : isoTime(record.createdAt),
  };
}

/** Resolves a profile id argument, accepting `provider:name`. */
function profileIdArgument(text: string): ProfileId {
  const parsed = parseProfileId(text);
  if (parsed === undefined) throw usage(`"${text}" is not a profile id: use provider:name, e.g. openai:default`);
  return `${parsed.provider}:${parsed.name}`;
}

/** The ids a provider's order may name: stored and inline profiles plus `auth.profiles` entries. */
async function knownProfileIds(context: CommandContext, store: AuthProfileStore, provider: string): Promise<Set<ProfileId>> {
  const ids = new Set((await store.listProfiles({ provider })).map((profile) => profile.id));
  for (const [id, configured] of Object.entries(context.config.auth.profiles)) {
    if (normalizeProviderId(configured.provider) === provider) ids.add(id);
  }
  return ids;
}

async function printOrder(context: CommandContext, store: AuthProfileStore, provider: string): Promise<void> {
  const state = await store.loadProviderAuthState(provider);
  const configOrder = configuredOrder(context.config, provider);
  const order = resolveProfileOrder({ state, configOrder, configProfiles: context.config.auth.profiles, nowMs: Date.now() });
  const document = {
    provider,
    storedOrder: state.storedOrder ?? null,
    configOrder: configOrder ?? null,
    effectiveOrder: order.profiles.map((entry) => entry.profileId),
    source: order.source,
  };
  if (context.json) {
    writeJson(context.io.stdout, document);
    return;
  }
  const { colors } = context;
  const none = colors.dim('(none)');
  writeLine(
    context.io.stdout,
    renderTable(
      ['provider', 'stored order', 'config order', 'effective order'],
      [[provider, document.storedOrder?.join(', ') ?? none, document.configOrder?.join(', ') ?? none, document.effectiveOrder.join(', ') || none]],
      colors,
    ),
  );
}

/** Registers `models auth …` under `models`. */
export function registerModelsAuthCommands(models: Command, io: CliIo): void {
  const auth = models.command('auth').description('Auth profiles of an agent: add, list, remove, clear cooldowns, order.');

  addCommonOptions(
    auth
      .command('add')
      .description('Store an auth profile. The secret comes from stdin or an environment variable, never from argv.')
      .requiredOption('--provider <id>', 'provider id, e.g. openai')
      .option('--id <name>', 'profile name or provider:name (default: default, or the email of an oauth profile)')
      .addOption(new Option('--type <type>', 'credential type').choices([...CREDENTIAL_TYPES]).makeOptionMandatory())
      .option('--key-stdin', 'read the key / token / access token from stdin (oauth: or the token JSON, with refresh_token and expires_in)')
      .option('--key-env <var>', 'read the key / token / access token from this environment variable')
      .option('--refresh-env <var>', 'oauth: read the refresh token from this environment variable')
      .option('--expires <time>', 'oauth/token: expiry, epoch ms or ISO time')
      .option('--email <email>', 'oauth: account email (also the default profile name)')
      .option('--project-id <id>', 'oauth: provider project id')
      .option('--enterprise-url <url>', 'oauth: enterprise base URL'),
  ).action(
    cliAction(async (options: AddOptions) => {
      const context = commandContext(options, io);
      const credential = await credentialFromOptions(options, io);
      const email = credential.type === 'oauth' ? credential.email : undefined;
      const id = profileIdOption({ id: options.id, email, provider: credential.provider });
      const { profile, created } = await withStore(context, (store) => store.upsertProfile({ id, credential }));
      if (context.json) writeJson(io.stdout, { id: profile.id, provider: profile.provider, type: profile.type, created });
      else writeLine(io.stdout, `${created ? 'Added' : 'Updated'} ${profile.type} profile ${context.colors.bold(profile.id)} for agent ${context.agentId}.`);
    }),
  );

  registerLoginCommand(auth, io);

  addCommonOptions(auth.command('list').description('List auth profiles (never their secrets).').option('--provider <id>', 'only this provider')).action(
    cliAction(async (options: CommonOptions & { readonly provider?: string }) => {
      const context = commandContext(options, io);
      const nowMs = Date.now();
      const entries = await withStore(context, async (store) => {
        const stats = await store.listUsageStats();
        return (await store.listProfiles({ provider: options.provider })).map((record) => listEntry(record, stats, nowMs));
      });
      if (context.json) {
        writeJson(io.stdout, entries);
        return;
      }
      if (entries.length === 0) {
        writeLine(io.stdout, context.colors.dim('No auth profiles.'));
        return;
      }
      writeLine(
        io.stdout,
        renderTable(
          ['profile', 'type', 'source', 'expires', 'state', 'last used'],
          entries.map((entry) => [entry.id, entry.type, entry.source, entry.expires ?? '', entry.stateText, entry.lastUsed ?? 'never']),
          context.colors,
        ),
      );
    }),
  );

  addCommonOptions(auth.command('remove').description('Remove a stored auth profile, its credential and usage stats.').argument('<id>', 'profile id')).action(
    cliAction(async (id: string, options: CommonOptions) => {
      const context = commandContext(options, io);
      const profileId = profileIdArgument(id);
      const removed = await withStore(context, (store) => store.removeProfile(profileId));
      if (!removed) throw usage(`no stored profile "${profileId}" (see \`understudy models auth list\`)`);
      if (context.json) writeJson(io.stdout, { id: profileId, removed: true });
      else writeLine(io.stdout, `Removed ${profileId}.`);
    }),
  );

  addCommonOptions(
    auth.command('clear-cooldown').description('Clear the cooldown and disable windows (and failure counts) of a profile.').argument('<id>', 'profile id'),
  ).action(
    cliAction(async (id: string, options: CommonOptions) => {
      const context = commandContext(options, io);
      const profileId = profileIdArgument(id);
      const stats = await withStore(context, async (store) => {
        const known = (await store.getProfile(profileId)) !== undefined || profileId in context.config.auth.profiles || profileId in (await store.listUsageStats());
        if (!known) throw usage(`no profile "${profileId}" (see \`understudy models auth list\`)`);
        return store.updateUsageStats(profileId, clearCooldown);
      });
      if (context.json) writeJson(io.stdout, { id: profileId, usageStats: stats });
      else writeLine(io.stdout, `Cleared the cooldown of ${profileId}: ${describeProfileState(profileState(stats, Date.now()))}.`);
    }),
  );

  const order = auth.command('order').description('The stored per-provider order override (tried before auth.order of the config).');
  addCommonOptions(order.command('get').description('Show the stored, configured and effective order of a provider.').requiredOption('--provider <id>', 'provider id')).action(
    cliAction(async (options: ProviderOptions) => {
      const context = commandContext(options, io);
      await withStore(context, (store) => printOrder(context, store, normalizeProviderId(options.provider)));
    }),
  );
  addCommonOptions(
    order
      .command('set')
      .description('Store the order of a provider\'s profiles.')
      .requiredOption('--provider <id>', 'provider id')
      .argument('<ids...>', 'profile ids (or names) in order'),
  ).action(
    cliAction(async (ids: string[], options: ProviderOptions) => {
      const context = commandContext(options, io);
      const provider = normalizeProviderId(options.provider);
      await withStore(context, async (store) => {
        const known = await knownProfileIds(context, store, provider);
        const wanted = ids.map((id) => (id.includes(':') ? profileIdArgument(id) : `${provider}:${id.trim()}`));
        const unknown = wanted.filter((id) => !known.has(id));
        if (unknown.length > 0) {
          const list = [...known].join(', ') || 'none';
          throw usage(`unknown profile${unknown.length === 1 ? '' : 's'} for ${provider}: ${unknown.join(', ')} (known: ${list})`);
        }
        await store.setOrderOverride(provider, wanted);
        await printOrder(context, store, provider);
      });
    }),
  );
  addCommonOptions(order.command('clear').description('Remove the stored order of a provider.').requiredOption('--provider <id>', 'provider id')).action(
    cliAction(async (options: ProviderOptions) => {
      const context = commandContext(options, io);
      const provider = normalizeProviderId(options.provider);
      const cleared = await withStore(context, (store) => store.clearOrderOverride(provider));
      if (context.json) writeJson(io.stdout, { provider, cleared });
      else writeLine(io.stdout, cleared ? `Cleared the stored order of ${provider}.` : `No stored order for ${provider}.`);
    }),
  );
}
