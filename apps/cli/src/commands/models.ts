/**
 * `understudy models status`: the agent's selected model and fallbacks from the config, and every auth profile
 * with its type, state (ok / cooling / disabled), last use and effective order. Never prints a secret.
 * `understudy models auth …` lives in `models-auth.ts`.
 */
import type { Command } from 'commander';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { configuredSelection } from '@understudy/candidate-chain';
import { configuredOrder } from '@understudy/config';
import { formatModelRef, normalizeProviderId, providerOfProfileId } from '@understudy/contracts';
import type { CredentialType, FailoverReason, ProfileId } from '@understudy/contracts';
import { resolveProfileOrder } from '@understudy/cooldown-scheduler';
import type { IneligibleReason, ProfileOrderSource } from '@understudy/cooldown-scheduler';
import type { RegisterCommand } from '../main.js';
import { writeLine } from '../io.js';
import { isoTime, renderTable, writeJson } from '../output.js';
import { addCommonOptions, cliAction, commandContext, requireKnownAgent, withStore } from '../store-context.js';
import type { CommandContext, CommonOptions } from '../store-context.js';
import { registerModelsAuthCommands } from './models-auth.js';
import { describeProfileState, profileState } from './models-profile-state.js';

/** One profile in `models status --json`. */
export interface StatusProfile {
  readonly id: ProfileId;
  readonly provider: string;
  /** `null` for a profile declared in `auth.profiles` that has no stored credential. */
  readonly type: CredentialType | null;
  readonly source: 'store' | 'inline' | 'config';
  readonly state: 'ok' | 'cooling' | 'disabled';
  readonly until: string | null;
  readonly reason: FailoverReason | null;
  readonly model: string | null;
  readonly lastUsed: string | null;
  readonly errorCount: number;
  readonly eligible: boolean;
  readonly ineligibleReason: IneligibleReason | null;
  readonly expires: string | null;
  readonly email: string | null;
}

/** One provider's order in `models status --json`. */
export interface StatusProvider {
  readonly provider: string;
  readonly orderSource: ProfileOrderSource;
  /**
   * The model the order was resolved for: the first model of this provider in the agent's configured chain
   * (a model-scoped cooldown demotes a profile only for its model), else `null`.
   */
  readonly orderModel: string | null;
  /** Eligible profiles in the order rotation tries them now. */
  readonly order: readonly ProfileId[];
  readonly storedOrder: readonly ProfileId[] | null;
  readonly configOrder: readonly ProfileId[] | null;
}

/** The `models status --json` document. */
export interface StatusReport {
  readonly agent: string;
  readonly now: string;
  readonly configPath: string;
  readonly configFound: boolean;
  readonly databasePath: string;
  readonly model: {
    readonly source: string;
    readonly field: string;
    readonly primary: string | null;
    readonly fallbacks: readonly string[];
    /** An agent primary without its own fallbacks: no configured fallback is used. */
    readonly strict: boolean;
  };
  readonly providers: readonly StatusProvider[];
  readonly profiles: readonly StatusProfile[];
}

/** Builds the status report of one agent. */
async function buildStatusReport(context: CommandContext, store: AuthProfileStore, nowMs: number): Promise<StatusReport> {
  const { config } = context;
  const selection = configuredSelection(config.agents, context.agentId, false);
  const stored = await store.listProfiles();
  const storedOrders = await store.listOrderOverrides();
  const providers = new Set<string>([
    ...stored.map((profile) => profile.provider),
    ...Object.keys(storedOrders),
    ...Object.keys(config.auth.order).map(normalizeProviderId),
    ...Object.values(config.auth.profiles).map((profile) => normalizeProviderId(profile.provider)),
  ]);
  const chainModel = new Map<string, string>();
  for (const ref of [selection.primary, ...(selection.fallbacks ?? [])]) {
    if (ref === undefined) continue;
    providers.add(ref.provider);
    if (!chainModel.has(ref.provider)) chainModel.set(ref.provider, ref.model);
  }

  const providerReports: StatusProvider[] = [];
  const profiles: StatusProfile[] = [];
  for (const provider of [...providers].sort()) {
    const state = await store.loadProviderAuthState(provider);
    const configOrder = configuredOrder(config, provider);
    const model = chainModel.get(provider);
    const order = resolveProfileOrder({ state, configOrder, configProfiles: config.auth.profiles, model, nowMs });
    if (state.profiles.length === 0 && order.ineligible.length === 0 && state.storedOrder === undefined && configOrder === undefined) continue;
    providerReports.push({
      provider,
      orderSource: order.source,
      orderModel: model ?? null,
      order: order.profiles.map((entry) => entry.profileId),
      storedOrder: state.storedOrder ?? null,
      configOrder: configOrder ?? null,
    });
    const ineligible = new Map(order.ineligible.map((entry) => [entry.profileId, entry.why]));
    const seen = new Set<ProfileId>();
    for (const profile of state.profiles) {
      seen.add(profile.id);
      const stats = state.usageStats[profile.id];
      const view = profileState(stats, nowMs);
      const record = stored.find((entry) => entry.id === profile.id);
      profiles.push({
        id: profile.id,
        provider,
        type: profile.facts.type,
        source: profile.source,
        state: view.state,
        until: view.untilMs === undefined ? null : isoTime(view.untilMs),
        reason: view.reason ?? null,
        model: view.model ?? null,
        lastUsed: stats?.lastUsed === undefined ? null : isoTime(stats.lastUsed),
        errorCount: stats?.errorCount ?? 0,
        eligible: !ineligible.has(profile.id),
        ineligibleReason: ineligible.get(profile.id) ?? null,
        expires: profile.facts.expiresAt === undefined ? null : isoTime(profile.facts.expiresAt),
        email: record?.email ?? profile.email ?? null,
      });
    }
    for (const [id, configured] of Object.entries(config.auth.profiles)) {
      if (seen.has(id) || providerOfProfileId(id) !== provider) continue;
      const view = profileState(state.usageStats[id], nowMs);
      profiles.push({
        id,
        provider,
        type: null,
        source: 'config',
        state: view.state,
        until: view.untilMs === undefined ? null : isoTime(view.untilMs),
        reason: view.reason ?? null,
        model: view.model ?? null,
        lastUsed: null,
        errorCount: state.usageStats[id]?.errorCount ?? 0,
        eligible: false,
        ineligibleReason: ineligible.get(id) ?? 'missing_credential',
        expires: null,
        email: configured.email ?? null,
      });
    }
  }

  return {
    agent: context.agentId,
    now: isoTime(nowMs),
    configPath: context.loaded.path,
    configFound: context.loaded.found,
    databasePath: store.location,
    model: {
      source: selection.kind,
      field: selection.field,
      primary: selection.primary === undefined ? null : formatModelRef(selection.primary),
      fallbacks: (selection.fallbacks ?? []).map(formatModelRef),
      strict: selection.fallbacks === undefined,
    },
    providers: providerReports,
    profiles,
  };
}

function printStatus(context: CommandContext, report: StatusReport): void {
  const { io, colors } = context;
  const out = (text: string): void => writeLine(io.stdout, text);
  out(`${colors.bold('Agent')}      ${report.agent}`);
  out(`${colors.bold('Config')}     ${report.configPath}${report.configFound ? '' : colors.dim(' (not found: defaults apply)')}`);
  out(`${colors.bold('State')}      ${report.databasePath}`);
  out(`${colors.bold('Model')}      ${report.model.primary ?? colors.dim('(none configured)')} ${colors.dim(`(${report.model.field})`)}`);
  const fallbacks = report.model.strict ? colors.dim('none: this agent primary is strict') : report.model.fallbacks.join(', ') || colors.dim('(none)');
  out(`${colors.bold('Fallbacks')}  ${fallbacks}`);
  if (report.providers.length > 0) {
    out('');
    out(
      renderTable(
        ['provider', 'order', 'from'],
        report.providers.map((provider) => [provider.provider, provider.order.join(', ') || '(no eligible profile)', provider.orderSource.replace('_', ' ')]),
        colors,
      ),
    );
  }
  out('');
  if (report.profiles.length === 0) {
    out(colors.dim('No auth profiles. Add one with `understudy models auth add --provider <id> --type api_key --key-env <VAR>`.'));
    return;
  }
  out(
    renderTable(
      ['profile', 'type', 'source', 'state', 'last used'],
      report.profiles.map((profile) => [
        profile.id,
        profile.type ?? '-',
        profile.source,
        stateText(context, profile),
        profile.lastUsed ?? colors.dim('never'),
      ]),
      colors,
    ),
  );
}

function stateText(context: CommandContext, profile: StatusProfile): string {
  const { colors } = context;
  const view = {
    state: profile.state,
    ...(profile.until === null ? {} : { untilMs: Date.parse(profile.until) }),
    ...(profile.reason === null ? {} : { reason: profile.reason }),
    ...(profile.model === null ? {} : { model: profile.model }),
  };
  const text = describeProfileState(view);
  const painted = profile.state === 'ok' ? colors.green(text) : profile.state === 'cooling' ? colors.yellow(text) : colors.red(text);
  return profile.eligible ? painted : `${painted} ${colors.red(`[ineligible: ${profile.ineligibleReason ?? 'unknown'}]`)}`;
}

/** Registers `models status` and `models auth …`. */
export const registerModelsCommands: RegisterCommand = (program: Command, io) => {
  const models = program.command('models').description('Models and auth profiles of an agent.');
  addCommonOptions(models.command('status').description('Selected model, fallbacks and the state of every auth profile.')).action(
    cliAction(async (options: CommonOptions) => {
      const context = commandContext(options, io);
      requireKnownAgent(context);
      const report = await withStore(context, (store) => buildStatusReport(context, store, Date.now()));
      if (context.json) writeJson(io.stdout, report);
      else printStatus(context, report);
    }),
  );
  registerModelsAuthCommands(models, io);
};
