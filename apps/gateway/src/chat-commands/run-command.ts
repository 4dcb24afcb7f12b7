/**
 * Runs a chat command against the agent's session and returns the assistant message that answers it.
 * Mistakes (an unknown model, a profile of another provider) are answered in words, not as HTTP errors: the
 * user typed them into a chat.
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import type { ModelRef } from '@understudy/contracts';
import { formatModelRef, parseModelRef, sameModelRef } from '@understudy/contracts';
import { configuredModelRefs } from '../chat/model-selection.js';
import { GatewayError } from '../gateway-error.js';
import { storeError } from '../services/store-errors.js';
import type { SessionContext } from '../sessions/session-ops.js';
import {
  clearUserModel,
  configuredPrimary,
  resetSessionState,
  resolveUserModel,
  resolveUserProfile,
  selectUserModel,
  sessionModelOverride,
} from '../sessions/session-ops.js';
import { formatStatus, sessionStatus } from '../sessions/status-report.js';
import type { ChatCommand } from './parse-command.js';
import { MODEL_USAGE } from './parse-command.js';

/** Where a command runs. */
export interface CommandContext {
  readonly store: AuthProfileStore;
  readonly config: UnderstudyConfig;
  readonly agentId: string;
  /** `x-understudy-session`; commands that change a session need one. */
  readonly sessionKey: string | undefined;
  readonly nowMs: number;
}

const NO_SESSION =
  'This command changes a session, and this request has none: send the header x-understudy-session: <key> to keep one.';

/**
 * The model and pinned profile of `/model <argument>`. A bare `@name` that is no profile of the provider is read
 * as part of the model id only when the config names that whole model (`vertex/claude@20240620`); otherwise it
 * is most likely a mistyped profile, and the answer says so instead of selecting a model that does not exist.
 */
async function modelAndProfile(
  command: Extract<ChatCommand, { kind: 'model_set' }>,
  context: CommandContext,
): Promise<{ readonly ref: ModelRef; readonly profileId?: string }> {
  if (command.profile === undefined) return { ref: resolveUserModel(command.model, context.config) };
  const ref = resolveUserModel(command.model, context.config);
  try {
    return { ref, profileId: await resolveUserProfile(context.store, ref.provider, command.profile) };
  } catch (error) {
    const wholeRef = parseModelRef(command.argument);
    if (command.profile.includes(':') || wholeRef === undefined || !GatewayError.isInstance(error)) throw error;
    const configured = configuredModelRefs(context.config).some((text) => {
      const ref = parseModelRef(text);
      return ref !== undefined && sameModelRef(ref, wholeRef);
    });
    if (configured) return { ref: wholeRef };
    throw new GatewayError(
      400,
      'invalid_request',
      `${error.message}. If "${wholeRef.model}" is a model id with "@" in it, list it in models.providers.${wholeRef.provider}.models first.`,
      { code: error.code },
    );
  }
}

async function run(command: ChatCommand, context: CommandContext): Promise<string> {
  const sessionContext: SessionContext = context;
  const key = context.sessionKey;
  switch (command.kind) {
    case 'invalid':
      return command.message;
    case 'status':
    case 'model_show': {
      const session = key === undefined ? undefined : await context.store.getSession(key);
      const text = formatStatus(await sessionStatus(context, key, session), context.nowMs);
      return command.kind === 'status' ? text : `${text}\n${MODEL_USAGE}`;
    }
    case 'model_set': {
      if (key === undefined) return NO_SESSION;
      const { ref, profileId } = await modelAndProfile(command, context);
      const entry = await selectUserModel(sessionContext, key, ref, profileId);
      const pin = entry?.authProfileOverride;
      return (
        `Model set to ${formatModelRef(ref)} for this session. It is your selection, so it is strict: when it fails, you get the error instead of another model.` +
        (pin === undefined ? '' : ` Auth profile ${pin} is ${profileId === undefined ? 'still' : 'now'} pinned.`)
      );
    }
    case 'model_default': {
      if (key === undefined) return NO_SESSION;
      const before = await context.store.getSession(key);
      const entry = await clearUserModel(sessionContext, key);
      const primary = configuredPrimary(context.config, context.agentId);
      const target = primary === undefined ? 'the configured default (none is configured)' : `the configured default, ${formatModelRef(primary)}`;
      const hadPin = before?.authProfileOverride;
      const pinNote =
        hadPin === undefined ? '' : entry?.authProfileOverride === undefined ? ` Auth profile ${hadPin} no longer matches and was unpinned.` : ` Auth profile ${hadPin} stays pinned.`;
      return `${sessionModelOverride(before) === undefined ? 'Already on' : 'Back to'} ${target}.${pinNote}`;
    }
    case 'new':
    case 'reset': {
      if (key === undefined) return NO_SESSION;
      const entry = await resetSessionState(sessionContext, key);
      const kept = [
        ...(sessionModelOverride(entry) === undefined ? [] : [`model ${sessionModelOverride(entry) ?? ''}`]),
        ...(entry?.authProfileOverride === undefined ? [] : [`auth profile ${entry.authProfileOverride}`]),
      ];
      return `New session started: automatic overrides and pins are cleared.${kept.length === 0 ? '' : ` Kept your selection: ${kept.join(', ')}.`}`;
    }
  }
}

/**
 * Runs a chat command and returns the text of the answering assistant message.
 *
 * @throws only unexpected errors (a store failure); user mistakes come back as text.
 * @example await runChatCommand({ kind: 'status' }, context) // 'Model: openai/gpt-4o (configured default)\n…'
 */
export async function runChatCommand(command: ChatCommand, context: CommandContext): Promise<string> {
  try {
    return await run(command, context);
  } catch (error) {
    // A profile id the store refuses is a user mistake too.
    const mistake = GatewayError.isInstance(error) ? error : storeError(error, context.agentId);
    if (mistake !== undefined && mistake.status < 500) return `${mistake.message}\n${MODEL_USAGE}`;
    throw error;
  }
}
