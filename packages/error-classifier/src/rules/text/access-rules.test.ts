import { describe, expect, it } from 'vitest';
import { REASON_POLICY } from '../../policy.js';
import { expectRuleCase, explain } from '../../test-support/classify.js';
import type { RuleCase } from '../../test-support/classify.js';

describe('permanent auth (seed: revoked/deactivated keys and deactivated workspaces use the disable lane)', () => {
  const cases: RuleCase[] = [
    ['a deactivated account is permanent', { status: 401, body: 'This key is associated with a deactivated account.' }, 'auth_permanent', 'text.auth_permanent'],
    ['a disabled organisation under 400 is permanent, not a bad request', { status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"This organization has been disabled."}}' }, 'auth_permanent', 'text.auth_permanent'],
    ['a restricted organisation is permanent', { status: 400, body: 'Organization has been restricted. Please reach out to support.' }, 'auth_permanent', 'text.auth_permanent'],
    ['a revoked key is permanent', { status: 401, body: 'API key has been revoked' }, 'auth_permanent', 'text.auth_permanent'],
    ['a key named by a relative clause that was disabled is permanent', { status: 403, body: 'The key that you supplied has been disabled by an administrator.' }, 'auth_permanent', 'text.auth_permanent'],
    ['a refresh token that was already used needs a new sign-in: permanent', { status: 401, body: 'Your refresh token was already used. Please sign in again.' }, 'auth_permanent', 'text.auth_permanent'],
    ['OAuth invalid_grant is permanent', { status: 400, body: '{"error":"invalid_grant","error_description":"Bad Request"}' }, 'auth_permanent', 'oauth.invalid_grant'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('uses the disable lane on the whole profile', () => {
    expect(REASON_POLICY.auth_permanent.lane).toBe('disable');
    expect(explain({ status: 401, body: 'account has been deactivated' }).cooldownScope).toBe('profile');
  });
});

describe('auth (seed: auth failures rotate profiles and cool the profile down)', () => {
  const cases: RuleCase[] = [
    ['an expired OAuth access token is auth (the runtime can refresh it), not a session expiry', { status: 401, body: '{"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired."}}' }, 'auth', 'text.auth'],
    ['an invalid key is auth', { status: 401, body: 'Incorrect API key provided' }, 'auth', 'text.auth'],
    ['a missing scope is auth', { status: 403, body: 'OAuth token does not meet scope requirement user:inference' }, 'auth', 'text.auth'],
    ['denied model access (IAM) wrapped as a connection error is auth, not a timeout', { body: 'litellm.APIConnectionError: Model access is denied due to IAM user or service role is not authorized to perform the required actions.' }, 'auth', 'text.auth'],
    ['a bare 401 is auth', { status: 401, body: '' }, 'auth', 'status.401'],
    ['a bare 403 is auth', { status: 403, body: '403 Forbidden' }, 'auth', 'text.auth'],
    ['an auth-shaped error type around a generic message is auth', { errorType: 'authentication_error', message: 'Request failed' }, 'auth', 'anthropic.authentication_error'],
    ['a wrong key under a 400 is still a wrong key', { status: 400, body: '400 {"code":"Client specified an invalid argument","error":"Incorrect API key provided: xa***en."}' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('TLS certificates (docs/policy.md#what-each-reason-does: later candidates of that provider are skipped)', () => {
  const cases: RuleCase[] = [
    ['an expired certificate code is tls_certificate', { code: 'CERT_HAS_EXPIRED' }, 'tls_certificate', 'tls.cert_has_expired'],
    ['a self-signed chain is tls_certificate', { message: 'self signed certificate in certificate chain' }, 'tls_certificate', 'text.tls_certificate'],
    ['an altname mismatch is tls_certificate', { code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: "Hostname/IP does not match certificate's altnames" }, 'tls_certificate', 'tls.altname_invalid'],
    ['Go x509 wording is tls_certificate', { message: 'Post "https://llm.internal/v1": x509: certificate signed by unknown authority' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('advances fallback without a cooldown', () => {
    expect(explain({ code: 'CERT_HAS_EXPIRED' }).cooldownScope).toBeNull();
    expect(REASON_POLICY.tls_certificate.advancesFallback).toBe(true);
  });
});

describe('shapes from the fifth public set (provider-errors-5, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a glued NoAuthError code is auth', { body: "{'header': {'code': 11200, 'message': 'AppIdNoAuthError:(10:00:00.000) domain.x'}}" }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the sixth public set (provider-errors-6, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a user id (in parentheses) that is temporarily suspended is a permanent auth failure', { body: 'Your User ID (ab12-cd34) temporarily is suspended.' }, 'auth_permanent', 'text.auth_permanent'],
    ['"we have locked your account" is a permanent auth failure', { body: 'For your safety we locked your account; contact support.' }, 'auth_permanent', 'text.auth_permanent'],
    ['an invalid API token is a wrong key', { body: 'ClientError: invalid api token' }, 'auth', 'text.auth'],
    ['a missing token is auth', { body: '[login failed]: access token is missing' }, 'auth', 'text.auth'],
    ['a missing max_tokens is not auth', { body: 'validation: max_token is missing' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the sixth public set (provider-errors-6, held-back rows, after the fifth was opened)', () => {
  const cases: RuleCase[] = [
    ['a firewall block page ("Sorry, you have been blocked") is access refused: auth', { body: '<h1 data-translate="block_headline">Sorry, you have been blocked</h1><h2>You are unable to access</h2> api.example.com' }, 'auth', 'text.auth'],
    ['a 401 page stated as "HTTP code 401" is auth', { body: 'HTTP code 401 from API (<html><body>denied</body></html>)' }, 'auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('credential policies of an organisation (reference vectors: OAuth not allowed for the organisation)', () => {
  const cases: RuleCase[] = [
    ['an organisation that does not allow OAuth is permanent until an administrator allows it', { status: 401, body: 'OAuth authentication is not allowed for this organization.' }, 'auth_permanent', 'text.auth_permanent'],
    ['an organisation that does not allow API keys is permanent too', { body: 'API key access is currently not allowed for this workspace' }, 'auth_permanent', 'text.auth_permanent'],
    ['a model not allowed for the organisation is no credential policy: auth', { status: 403, body: 'This model is not allowed for this organization' }, 'auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the eighth public set (provider-errors-8, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a suspended consumer named by a quoted key id is permanent', { body: "Permission denied: Consumer 'api_key:XXXX' has been suspended." }, 'auth_permanent', 'text.auth_permanent'],
    ['the CONSUMER_SUSPENDED reason code alone is permanent', { status: 403, body: '{"error":{"code":403,"message":"denied","details":[{"reason":"CONSUMER_SUSPENDED"}]}}' }, 'auth_permanent', 'google.consumer_suspended'],
    ['"your access was terminated" is permanent, even raised as a rate-limit class', { body: 'RateLimitError: Your access was terminated due to a policy violation.' }, 'auth_permanent', 'text.auth_permanent'],
    ['a JVM peer-verification failure is a TLS certificate failure', { body: 'javax.net.ssl.SSLPeerUnverifiedException: Hostname llm.example.org not verified' }, 'tls_certificate', 'text.tls_certificate'],
    ['a JVM chain that cannot be built is a TLS certificate failure', { body: 'sun.security.validator.ValidatorException: PKIX path building failed' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('access families from the ninth set (provider-errors-9, provider documentation, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a Chinese account locked by the platform is permanent', { body: '错误：该账号已被锁定，请联系管理员' }, 'auth_permanent', 'text.auth_permanent'],
    ['a Chinese account in an inactive state is permanent', { body: '当前帐户处于未激活状态' }, 'auth_permanent', 'text.auth_permanent'],
    ['a Japanese suspended account is permanent', { body: 'このアカウントは停止されています' }, 'auth_permanent', 'text.auth_permanent'],
    ['an expired login session is a credential to renew, not a lost conversation', { status: 401, body: 'Your login session has expired; sign in to continue.' }, 'auth', 'text.auth'],
    ['an expired OAuth session without a status is auth too', { body: 'oauth session is expired' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a conversation session that expired is still session_expired', () => {
    expect(explain({ status: 404, body: 'The chat session has expired.' }).reason).toBe('session_expired');
  });
});

describe('access families from the tenth set (provider-errors-10, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['"authentication is invalid" is auth', { body: 'code=4101, msg=authentication is invalid' }, 'auth', 'text.auth'],
    ['"Authentication Fails" is auth', { status: 401, body: 'Authentication Fails (no such user)' }, 'auth', 'text.auth'],
    ['a failed login is auth', { body: 'login failed: missing secret key header' }, 'auth', 'text.auth'],
    ['incorrect credentials of any kind are auth', { body: '[plugin] Incorrect provider credentials provided.' }, 'auth', 'text.auth'],
    ['an invalid product token is auth', { body: 'Invalid workspace token provided' }, 'auth', 'text.auth'],
    ['a relay token whose state is unusable is auth', { body: '{"error":{"message":"该令牌状态不可用"}}' }, 'auth', 'text.auth'],
    ['a "restricted API key" is a kind of key, not a ban', { status: 401, body: "Missing scopes: model.request. If you're using a restricted API key, check its scopes." }, 'auth'],
    ['rustls "invalid peer certificate" is a TLS failure', { message: 'error sending request: invalid peer certificate: UnknownIssuer' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('access families from the eleventh set (provider-errors-11, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a product disabled on the account for a violation is permanent', { status: 403, body: 'The assistant has been disabled on this account due to a violation of the Terms.' }, 'auth_permanent', 'text.auth_permanent'],
    ['"Login failed" around a server error is the server error', { message: 'Login failed: An internal error has occurred' }, 'server_error'],
    ['"Login failed" with nothing else is auth', { message: 'login failed: bad secret' }, 'auth', 'text.auth'],
    ['Chinese: an API key that is invalid or expired, with a space', { message: 'API Key 已过期，请更换' }, 'auth', 'text.auth'],
    ['certificate verification failed is TLS, not the "unable to connect" around it', { message: 'Unable to connect: TLS certificate verification failed for api.example.com' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("access families found when the eleventh set's held-back part was opened, in other words", () => {
  it(".NET's certificate-chain failure is TLS, not the AuthenticationException class it comes in", () => {
    expect(explain({ message: 'System.Security.Authentication.AuthenticationException: The remote certificate was rejected by the provided validation callback.' }).reason).toBe('tls_certificate');
  });
});

describe('access families from the twelfth set (provider-errors-12, dev rows), in other words', () => {
  it('Japanese: an incorrect token is auth', () => {
    expect(explain({ message: 'API キーが無効です。' }).reason).toBe('auth');
  });
});

describe('access words in a vocabulary pass before the thirteenth set', () => {
  const cases: RuleCase[] = [
    ["Google's 'The caller does not have permission' is auth", { message: 'PermissionDenied: The caller does not have permission' }, 'auth'],
    ['not having permission to a resource is auth', { message: 'You do not have permission to use this deployment.' }, 'auth', 'text.auth'],
    ['a missing authorization header is auth', { message: 'x-api-key header is missing' }, 'auth', 'text.auth'],
    ["AWS's expired request signature is auth", { message: 'InvalidSignatureException: Signature expired: 20260101T000000Z is now earlier than …' }, 'auth'],
    ["AWS's expired security token is auth", { message: 'The security token included in the request is invalid.' }, 'auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("access families found when the thirteenth set's held-back part was opened, in other words", () => {
  it('a model not allowed for the account is auth', () => {
    expect(explain({ message: 'Invalid request: model gpt-x is not allowed for your organization' }).reason).toBe('auth');
  });
});

describe('a second vocabulary pass: keys, tokens and certificates', () => {
  const cases: RuleCase[] = [
    ['a missing bearer token is auth', { message: 'Missing access token in request' }, 'auth', 'text.auth'],
    ['an API key that is required is auth', { message: 'API key is required for this endpoint.' }, 'auth', 'text.auth'],
    ['an access token that has expired is auth', { message: 'The access token has expired.' }, 'auth', 'text.auth'],
    ['an OAuth token the provider revoked needs a new sign-in: permanent (two fourteenth-set rows)', { message: 'The OAuth token has been revoked.' }, 'auth_permanent', 'text.auth_permanent'],
    ["Chromium's certificate error is TLS", { message: 'net::ERR_CERT_DATE_INVALID' }, 'tls_certificate', 'text.tls_certificate'],
    ["Java's PKIX validation failure is TLS", { message: 'ValidatorException: PKIX path validation failed' }, 'tls_certificate', 'text.tls_certificate'],
    ['.NET: a chain issued by an untrusted authority is TLS', { message: 'The certificate chain was issued by an authority that is not trusted.' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("access families from the fifteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['an account named by a masked address, suspended, is permanent', { message: 'Your account j***@example.org has been suspended.' }, 'auth_permanent', 'text.auth_permanent'],
    ['an API key not recognised is auth', { message: 'The API key is not recognised.' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("access families from the sixteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a secret id not found is auth', { message: 'The SecretId is not found, check it.' }, 'auth', 'text.auth'],
    ['a free tier bound to one client is permanent', { message: "This plan can only be used in the vendor's own app" }, 'auth_permanent', 'text.auth_permanent'],
    ['reauthentication that is needed is auth, whatever the status', { status: 503, message: 'Reauthentication is needed. Run the login command to reauthenticate.' }, 'auth', 'text.auth'],
    ['a user without the permission is auth (Chinese)', { message: '用户没有该权限' }, 'auth', 'text.auth'],
    ['access that was restricted is auth (Chinese)', { message: '用户访问被限制' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("revoked tokens and local permissions (a breaker's findings)", () => {
  const cases: RuleCase[] = [
    ['an access token the provider revoked is permanent', { status: 401, body: '{"error":"invalid_token","error_description":"The access token has been revoked"}' }, 'auth_permanent', 'text.auth_permanent'],
    ['OAuth access revoked for an application is permanent', { status: 403, message: 'OAuth access has been revoked for this application' }, 'auth_permanent', 'text.auth_permanent'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a sandbox refusing to write a file is no credential failure', () => {
    expect(explain({ message: 'Permission to write file /tmp/out.txt denied by sandbox' }).reason).toBe('unclassified');
  });
});

describe('access families from the eighteenth set, in other words', () => {
  const cases: RuleCase[] = [
    ['a token without the scopes the API needs is auth', { message: 'PermissionDenied: the OAuth token has insufficient authentication scopes for generativelanguage' }, 'auth', 'text.auth'],
    ["OpenAI's refusal of the caller's country, without its status, is auth", { message: 'completion failed — reason: Country, region or territory not supported' }, 'auth', 'text.auth'],
    ['a key that may not use a model is auth', { status: 400, body: '{"code":4003,"msg":"No permission to use this model"}' }, 'auth', 'text.auth'],
    ['a client guessing that the key may be invalid is auth', { message: 'Request failed. Your API key may be invalid, check it in Settings.' }, 'auth', 'text.auth'],
    ['a session to renew by logging in again is auth', { message: 'cookie expired, please log in again' }, 'auth', 'text.auth'],
    ['a region refusal under a 403 is decided by the status (auth)', { status: 403, body: 'This endpoint is not available in your region.' }, 'auth'],
    ['a region refusal under a 400 stays format (another provider may serve the caller)', { status: 400, body: 'This endpoint is not available in your region.' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('access families from the nineteenth set, in other words', () => {
  const cases: RuleCase[] = [
    ['a model key that is invalid is auth, not a missing model', { status: 401, body: 'Invalid model key for this deployment' }, 'auth', 'text.auth'],
    ['terms an administrator must accept', { status: 400, body: 'The model x requires terms acceptance by an org admin.' }, 'auth', 'text.auth'],
    ['a model restricted to authorised applications', { status: 400, body: 'Request denied: this model is restricted to authorised clients.' }, 'auth', 'text.auth'],
    ["Copilot's policy to enable", { message: 'No model available. Check policy enablement in your settings.' }, 'auth', 'text.auth'],
    ['a human verification, in Chinese', { message: '触发人机验证，请稍后再试' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('access families from the twentieth set, in other words', () => {
  const cases: RuleCase[] = [['the user a key belongs to is gone', { message: 'Request failed: User not found.' }, 'auth', 'text.auth']];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("permanent auth families from the twenty-fifth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a user locked by the provider is a permanent auth failure', { status: 403, body: '{"detail":"This user has been locked. Contact support."}' }, 'auth_permanent', 'text.auth_permanent'],
    ['a free tier switched off for abuse is a permanent auth failure', { body: 'Unusual activity detected. Free tier usage has been disabled for this account.' }, 'auth_permanent', 'text.auth_permanent'],
    ['a relay saying no token was given is auth', { status: 401, body: '{"error":{"message":"未提供令牌","type":"new_api_error"}}' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a lock on something other than a user or an account is not a ban', () => {
    expect(explain({ body: 'the file is locked by another process' }).reason).toBe('unclassified');
  });
});

describe("families from the twenty-seventh set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['no service key found is a missing credential', { body: 'Vectorization failed: no embedding service key found' }, 'auth', 'text.auth'],
    ['no API key provided is a missing credential', { body: 'No OpenAI API key provided.' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the twenty-seventh set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['an api_key option that must be set is a missing credential', { body: 'The apiKey option must be set: pass api_key to the client' }, 'auth', 'text.auth'],
    ['an OPENAI_API_KEY variable that is not set is a missing credential', { body: "both 'OPENAI_API_KEY' environment variables are not set" }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("auth from the twenty-eighth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a Chinese account muted (禁言) by the provider is auth: a mute ends by itself, so it is no ban', { body: '你的帐号已被禁言，请联系客服。' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("auth from the twenty-ninth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a provider that requires its API key variable is auth', { body: 'Failed to start: Anthropic provider requires ANTHROPIC_API_KEY' }, 'auth', 'text.auth'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("auth, permanent auth and TLS from the thirtieth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a request the provider could not authenticate is auth, not a broken connection', { body: 'Test connection failed. We were unable to authenticate a test request to the API.' }, 'auth', 'text.auth'],
    ['an account under manual review after an abuse alert is auth', { body: 'You triggered an abuse alert; your account is under review.' }, 'auth', 'text.auth'],
    ["a Google key restricted away from the API called is auth", { body: 'Requests to this API generativelanguage.googleapis.com method google.ai.generativelanguage.v1beta.GenerativeService.GenerateContent are blocked.' }, 'auth', 'text.auth'],
    ['blocked from using a service is permanent', { body: 'Your account has been blocked from using this service.' }, 'auth_permanent', 'text.auth_permanent'],
    ["Android's trust anchor not found is a certificate failure", { body: 'javax.net.ssl.SSLHandshakeException: Trust anchor for certification path not found.' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it("Cloudflare's \"you have been blocked\" page without a service named is no ban", () => {
    expect(explain({ status: 403, body: 'Sorry, you have been blocked. You are unable to access api.example.com' }).reason).toBe('auth');
  });
});
