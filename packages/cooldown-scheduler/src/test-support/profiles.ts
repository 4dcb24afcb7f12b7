import type { AuthProfileView, CredentialFacts, ProfileUsageStats, ProviderAuthState } from '@understudy/contracts';
import { providerOfProfileId } from '@understudy/contracts';

/** A secret-free profile view for tests. */
export function view(id: string, facts: Partial<CredentialFacts> & Pick<CredentialFacts, 'type'>, provider?: string): AuthProfileView {
  return {
    id,
    provider: provider ?? providerOfProfileId(id) ?? 'unknown',
    facts: { hasSecret: true, hasRefresh: facts.type === 'oauth', ...facts },
    source: id.endsWith(':inline') ? 'inline' : 'store',
  };
}

export const apiKey = (id: string, extra: Partial<CredentialFacts> = {}): AuthProfileView => view(id, { type: 'api_key', ...extra });
export const token = (id: string, extra: Partial<CredentialFacts> = {}): AuthProfileView => view(id, { type: 'token', ...extra });
export const oauth = (id: string, extra: Partial<CredentialFacts> = {}): AuthProfileView => view(id, { type: 'oauth', ...extra });

export function state(
  provider: string,
  profiles: readonly AuthProfileView[],
  usageStats: Record<string, ProfileUsageStats> = {},
  storedOrder?: readonly string[],
): ProviderAuthState {
  return { provider, profiles, usageStats, ...(storedOrder === undefined ? {} : { storedOrder }) };
}
