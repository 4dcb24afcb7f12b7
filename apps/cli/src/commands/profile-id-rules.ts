/**
 * What `models auth add` accepts as a provider id and a profile id (the model-failover doc "Profile IDs": `provider:name`).
 * Ids end up in admin URLs (`/admin/profiles/:id/…`), config keys and table columns, so they are short and
 * plain: no path separators, spaces or control characters. Messages state the rule without echoing the
 * value (a secret pasted into the wrong flag must not reach a terminal or a CI log).
 */
import { formatProfileId, normalizeProviderId, parseProfileId } from '@understudy/contracts';
import type { ProfileId } from '@understudy/contracts';
import { CliError, ExitCode } from '../io.js';

/** A normalised provider id: 1-64 of `a-z 0-9 . _ -`, starting with a letter or digit. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** A profile name: 1-128 of letters, digits, `. _ - + @`, starting with a letter, digit or `_` (an email fits). */
const PROFILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._@+-]{0,127}$/;

const PROVIDER_RULE = 'use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. openai)';
const NAME_RULE =
  'a profile name is 1-128 letters, digits, ".", "_", "-", "+" or "@", starting with a letter, digit or "_" (e.g. work, or ada@example.com); no "/", spaces or control characters';

const usage = (message: string): CliError => new CliError(message, { exitCode: ExitCode.usage, code: 'invalid_profile_id' });

/**
 * The `--provider` value, normalised and checked.
 *
 * @throws {CliError} exit 2 naming the rule.
 * @example checkProviderOption('OpenAI') // 'openai'
 */
export function checkProviderOption(text: string): string {
  const provider = normalizeProviderId(text);
  if (provider === '') throw usage('--provider is empty: name the provider, e.g. --provider openai');
  if (!PROVIDER_ID.test(provider)) throw usage(`--provider: ${PROVIDER_RULE}`);
  return provider;
}

/**
 * The id a new profile of `provider` gets from `--id` (a name, or `provider:name` of the same provider), else
 * from the oauth `--email`, else `undefined` (the store's default name).
 *
 * @throws {CliError} exit 2: another provider in `--id`, or a name that breaks the rule.
 * @example profileIdOption({ id: 'work', provider: 'openai' }) // 'openai:work'
 */
export function profileIdOption(options: { readonly id?: string | undefined; readonly email?: string | undefined; readonly provider: string }): ProfileId | undefined {
  const text = options.id?.trim();
  if (text === undefined || text === '') {
    if (options.email !== undefined && !PROFILE_NAME.test(options.email.trim())) throw usage(`--email is the profile name when --id is absent, and ${NAME_RULE}; give --id`);
    return undefined;
  }
  const parsed = text.includes(':') ? parseProfileId(text) : { provider: options.provider, name: text };
  if (parsed === undefined) throw usage(`--id: use a name or provider:name; ${NAME_RULE}`);
  if (parsed.provider !== options.provider) {
    const named = PROVIDER_ID.test(parsed.provider) ? ` "${parsed.provider}"` : ' another provider';
    throw usage(`--id names${named} but --provider is "${options.provider}": give the name alone (--id work) or ${options.provider}:work`);
  }
  if (!PROFILE_NAME.test(parsed.name)) throw usage(`--id: ${NAME_RULE}`);
  return formatProfileId(options.provider, parsed.name);
}
