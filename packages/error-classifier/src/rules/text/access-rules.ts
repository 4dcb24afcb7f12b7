/**
 * Text families about access: permanent auth failures, ordinary auth failures, TLS certificate failures.
 *
 * Seed 002, "Billing disables": high-confidence permanent auth failures (revoked or deactivated keys,
 * deactivated workspaces, organisations that were disabled or restricted, OAuth refresh tokens that can never
 * be used again) take the disable lane; other auth failures (invalid or expired tokens, missing scopes, denied
 * model access) take a cooldown and rotate profiles. Billing text runs before both, so "Access denied due to
 * overdue account" stays billing under a 403.
 *
 * Patterns are lower case with bounded quantifiers only.
 */
import type { TextRule } from '../rule.js';
import { family } from '../rule.js';

/** Bans, deactivations, revocations: the credential will not work again without a human. */
export const AUTH_PERMANENT_RULES: readonly TextRule[] = family('text.auth_permanent', 'auth_permanent', {
  en: [
    /(?:account|organization|organisation|org|workspace|team|project|api key|key|user|tenant|consumer)(?: [a-z0-9_-]{1,40}| …| \.\.\.| id \([a-z0-9_-]{1,40}\)| '[^' ]{1,80}'| (?:that |which )?(?:you |we )?(?:have |had )?(?:provided|used|supplied|entered|specified))? (?:temporarily )?(?:(?:has been |is |was |have been |got )?(?:permanently |temporarily )?(?:deactivated|disabled|suspended|banned|revoked|restricted|blocked)|(?:has been |is |was |have been |got )(?:permanently )?(?:closed|deleted))(?! due to insufficient)/,
    // (a name a reporter cut to an ellipsis, "Account … is suspended", is still a name)
    // (a stream, a connection or a listener "for user abc closed" is a dropped connection: closed and deleted need an auxiliary)
    // not "restricted": a "restricted API key" is a kind of OpenAI key (one with scopes), not a restriction
    /(?:deactivated|disabled|suspended|banned|terminated|revoked|blocked|closed) (?:account|organization|organisation|workspace|api key|key)|deactivated_workspace|api_key_deleted|workspace_(?:disabled|deactivated)(?![a-z])(?!["']?\s?[:=])/,
    /refresh token (?:was |has |is )?(?:already (?:been )?used|been used|revoked|expired|invalid|reused|not found|no longer valid)/,
    // an archived workspace (no key in it works again), an organisation whose policy refuses the kind of credential
    // used, access ended for good, an account or a key terminated
    /(?:workspace|organi[sz]ation|project) (?:has been |was |is )archived|(?:organi[sz]ation|workspace) (?:does not|doesn't) allow (?:api[ _-]?key|oauth|personal access token) auth|(?:personal access tokens?|api keys?|oauth tokens?) are not (?:permitted|allowed) by (?:your|the|this) organi[sz]ation|(?:has been |was )?permanently terminated for (?:your|this) (?:account|organi[sz]ation|key)|(?:account|api key|key|organi[sz]ation|workspace)(?: [a-z0-9_-]{1,40})? (?:has been |was |is )?(?:permanently )?terminated(?= for| due to| because|[.,;:]|$)/,
    // an OAuth token revoked by the provider: only a new sign-in gives another
    /(?:oauth |access |bearer )?token (?:has been |was )revoked|oauth access has been revoked/,
    // a free tier or credential bound to one client ("OpenCode's free tier can only be used in OpenCode")
    /(?:free tier|key|token|credential|plan) can only be used (?:in|with|by|from)(?![a-z])/,
    /(?:invalid|expired|revoked|reused) refresh token|could not be refreshed (?:because|automatically)/,
    // a credential only authorised for one product (a subscription token outside its client), a key reported leaked
    /(?:credential|token|key) is only authori[sz]ed for use with|(?:was |been )?reported as leaked|key (?:has been |was )?leaked/,
    // a user or account locked by the provider (fal's "User is locked. Reason: Admin lock"), a free tier switched off for abuse
    /(?:user|account) (?:is |has been |was )locked(?![a-z])(?! out| until)|(?<!if )free tier usage (?:has been |is )?disabled/,
    /irregular activit(?:y|ies) and (?:has been |was )?(?:locked|suspended|banned)|access (?:was |has been )?terminated|it has been deleted or deactivated|(?:locked|suspended|disabled|banned) your account/,
    // a product switched off on the account for a terms-of-service violation (only an appeal restores it)
    /(?:disabled|suspended|blocked|banned) (?:in|on|for) (?:this|your|the) account (?:for|due to) (?:a )?violation|(?:you have|you've|your account has) been permanently blocked from|(?:you have|you've|your account has) been blocked from (?:accessing|using) [^.|]{1,60}\. this happens on [^.|]{0,40}(?:tos|terms of service) violations/,
    // an organisation's policy against a kind of credential (OAuth, SSO, API keys): only an administrator lifts it
    /(?:oauth|sso|api[ -]key|token|credential)s?(?: authentication| access)? (?:is |are )?(?:currently )?not allowed for this (?:organi[sz]ation|workspace|account)/,
    // a consumer named with a masked key whose quote a client cut ("Consumer 'api_key:AIza**** has been suspended")
    /consumer '?[^ ']{1,80} (?:has been |is |was )(?:permanently )?suspended/,
    // an account named by a masked address ("Your account ***@gmail.com has been suspended")
    /account [^ ]{1,80}@[^ ]{1,80} (?:has been |is |was )(?:permanently )?(?:suspended|banned|deactivated|disabled)/,
  ],
  zh: [
    // an app id, account or key on a blacklist; an account flagged abnormal that only support can clear
    /(?:在|加入|列入|拉入)黑名单|黑名单(?:中|用户|账号)|(?:账号|账户|帐号|帐户)(?:状态)?异常/,
    /(?:账号|账户|帐号|帐户|用户|组织)(?:已)?(?:被)?(?:封禁|禁用|停用|冻结|注销|锁定)|已被封禁/,
    // an account in a state only support changes (Zhipu 1110 "您的账户当前处于非活动状态")
    /(?:账号|账户|帐号|帐户)(?:当前)?(?:处于)?(?:非活动|未激活|冻结|锁定)状态/,
  ],
  ja: [/アカウント(?:が|は)?(?:停止|無効化|凍結|削除|ロック)され/],
});

/** Wrong or missing API keys: read before the format family, so "Incorrect API key" under a 400 stays auth. */
export const AUTH_KEY_RULES: readonly TextRule[] = family('text.auth', 'auth', {
  en: [
    /api[ _-]?key (?:might|may) (?:be )?invalid|invalid model key|invalid (?:x-)?api[ _-]?(?:key|token)(?![a-z])|incorrect api[ \n]{1,8}key|api[ _-]?key (?:is )?(?:invalid|not valid|missing|expired|not found|incorrect)(?![a-z])|api key expired/,
    /could not (?:authenticate|validate) (?:the )?(?:api key|credentials)|(?:a )?valid api[ _-]?key must be provided|no (?:[a-z]{1,20} ){0,3}(?:api|service|secret|access|auth(?:entication)?) key (?:was )?(?:found|provided|configured)(?![a-z])|(?:api_?key|openai_api_key)['"]? (?:client )?(?:option )?must be set|(?:openai_api_key|anthropic_api_key|api_key)['"]? environment variables? (?:is |are )?(?:not (?:available|set)|missing)|could not resolve authentication method|invalid proxy server token|must provide (?:an? |your |a valid )?api[ _-]?key(?![a-z_])|(?:didn't|did not|don't|do not) provide (?:an? |your |any )?api[ _-]?key(?![a-z_])|requires? (?:an? |your )?(?:[a-z]{1,20}_)?api_key(?![a-z_])/,
    // a malformed credential header named before the words a format rule reads ("Invalid 'Authorization' header or token")
    /(?:wrong|bad) api[ _-]?key(?![a-z])|invalid header field value for "?(?:authorization|x-api-key|api-key)|api[ _-]?key (?:that )?you (?:supplied|provided|entered|passed|used) (?:is )?(?:not valid|invalid|incorrect|wrong)|permission ['"][a-z0-9._-]{1,120}['"] denied on resource/,
    /invalid '?(?:authorization|auth|x-api-key|api-key|api key)'? header|api[ _-]?key (?:is )?(?:not recogni[sz]ed|unrecogni[sz]ed)/,
    // cloud access-key pairs (Baidu's AK/SK, app ids and app keys) reported wrong
    /(?<![a-z])(?:ak|sk|access ?key(?: id)?|secret ?(?:key|id)|app ?key|app ?id)(?:\([^)]{0,60}\))? (?:is )?(?:not correct|incorrect|wrong|invalid|not valid|not found)(?![a-z])/,
  ],
  zh: [
    /(?<![a-z])(?:ak|sk|appid|app ?key)(?:\([^)]{0,60}\))?(?:错误|无效|不正确)/,/api ?key ?(?:无效|错误|不存在|已?过期|未设置|未配置|为空)|密钥(?:无效|错误|不正确|不存在)|签名(?:已)?过期|签名(?:错误|无效|验证失败)|令牌(?:无效|已过期|错误|不存在)|无效的令牌|未提供令牌|令牌(?:状态)?不可用/],
});

/** Credentials missing, invalid, expired or lacking permission. */
export const AUTH_RULES: readonly TextRule[] = family('text.auth', 'auth', {
  en: [
    /(?:no|missing) (?:[a-z]{1,12} ){0,2}(?:api[ _-]?key|credentials?|auth(?:entication|orization)? (?:header|token)|bearer token|access token)|api[ _-]?key (?:is )?required|(?<![a-z_])(?:access |auth |bearer )?token (?:is )?missing/,
    /unauthori[sz]ed|unauthenticated|not authenticated|noauth(?:orization)?(?:error|exception)/,
    /authentication (?:is )?(?:failed|fails|error|required|is required|credentials|invalid)|auth(?:entication)? failure|failed to authenticate(?! (?:the )?(?:proxy|tunnel))/,
    /invalid (?:authentication|auth|credentials?|token|bearer|access token|oauth|api endpoint or credentials)|bad credentials|(?:invalid|incorrect|wrong) (?:[a-z]{1,20} )?(?:credentials|token)(?: provided)?(?![a-z])/,
    /(?:extract|decode|parse) (?:the )?[a-z]{1,20} from (?:the )?(?:access |oauth |jwt |id )?token/,
    /(?:access |oauth |bearer |auth )?token (?:has |is |has been |was )?(?:expired|invalid|revoked)|expired (?:access |oauth )?token|token refresh failed|failed to refresh (?:the )?(?:oauth )?token/,
    /permission[ _]denied(?! for \/)|permission[ _]error|insufficient permissions?|not authori[sz]ed to|lacks? (?:the )?(?:required )?permissions?/,
    /access (?:is )?denied|access to (?:this |the )?model (?:is )?denied|model access is denied/,
    /use case details have not been submitted|(?:don't|do not|does not|doesn't) have (?:access|permission) to|(?:caller|user|principal|account) does not have permission|(?:available|open) (?:in limited preview |in private preview |in beta )?(?:for|to) select(?:ed)? (?:customers|users|accounts|organi[sz]ations) only|(?:does not|doesn't|do not|don't) have the (?:required |necessary )?permissions? to/,
    /(?:authorization|auth|x-api-key|api-key|api key) header (?:is )?(?:missing|invalid|required|malformed|not provided)|signature (?:has )?expired|signaturedoesnotmatch|security token (?:included in the request )?is (?:expired|invalid)/,
    /forbidden|not allowed for this (?:organization|account|key)|is not allowed for your (?:account|organi[sz]ation|key|team|plan)|oauth authentication is currently not allowed/,
    /(?:invalid|check|expired) (?:the )?(?:__)?secure-[13]psid|snlm0e value not found/,
    /not approved for (?:this|your|the) (?:workspace|organi[sz]ation|account|project)|sorry, you have been blocked|you are unable to access|detected suspicious activity (?:from|on|in) your account/,
    // a key the client never set ("OPENAI_API_KEY is not set"), a request signed with the wrong secret (AWS SigV4)
    /api[ _-]?key['"`]? (?:is |was )?(?:not set|not configured|not provided|unset)(?![a-z])(?<!if (?:the |your |an? )?[a-z0-9_ -]{0,30}api[ _-]?key['"`]? (?:is |was )?(?:not set|not configured|not provided|unset))|signature we calculated does not match the signature you provided/,
    /scope requirement|insufficient scope|missing scope|insufficient authentication scopes|access_token_scope_insufficient/,
    // OpenAI refusing the caller's country (its 403 `unsupported_country_region_territory`), a model this key may not use
    /country, region,? or territory (?:is )?not supported|unsupported_country_region_territory|no permission to use (?:the |this )?model/,
    // terms an administrator must accept, a model restricted to authorised applications, a policy to enable (Copilot)
    /requires terms acceptance|restricted to authori[sz]ed|check policy enablement/,
    // the user a key belongs to is gone (OpenRouter's 401 "User not found" for a deleted or unknown key)
    /ai gateway access failed|(?<![a-z])user not found(?![a-z])|device code has expired|(?<![a-z])expired_token(?![a-z])/,
    /run \/login|please (?:log ?in|sign ?in|re-?authenticate)|(?:log|sign) ?in again(?<!if [^.|]{0,60}(?:log|sign) ?in again)|or re-?authenticate|to re-?authenticate|reauthentication is (?:needed|required)/,
    /(?:oauth|login|auth|sign-in) session (?:has |is |was )?(?:expired|invalid|revoked)/,
    /(?:user|access|auth|bearer|api) token (?:is )?required|(?:invalid|incorrect|wrong) (?:username|user name|login) or password/,
    // OAuth 2.0's own error codes (RFC 6749 §5.2) and the credentials a request signature could not prove
    /(?<![a-z])(?:invalid_client|unauthorized_client)(?![a-z])|unknown client id/,
    /invalid (?:request )?signature|signature (?:failure|mismatch|verification failed|is (?:incorrect|invalid|not correct))|signaturefailure|credentials could not be validated/,
    // a cloud's permission denied on named resources (Yandex Cloud), an IAM check that failed (Baidu Qianfan)
    /permission to \[[^\]]{1,400}\] denied|iam (?:certification|authentication|auth) failed/,
    // a request the provider could not authenticate; an account held for review after an abuse alert (Midjourney)
    /(?:unable|failed) to authenticate (?:a |the |your )?(?:test )?request|triggered an abuse alert|(?<!if (?:your |the )?)account is (?:now )?under (?:manual )?review/,
    // a Google API key restricted away from the API called (API_KEY_SERVICE_BLOCKED)
    /requests to this api [^ ]{1,120} method [^ ]{1,200} are blocked/,
  ],
  zh: [/(?:账号|账户|帐号|帐户)(?:已)?(?:被)?禁言|人机验证|未授权|认证失败|鉴权失败|无权(?:限|访问)|身份验证失败|禁止访问|(?:未|没)(?:有|拥有)(?:该|此|访问)?权限|访问(?:被限制|受限)/],
  ja: [/(?:トークン|api ?キー|認証情報)(?:が|は)?(?:正しくありません|無効)|再認証して/],
  ko: [/(?:api ?키|토큰|인증 ?(?:정보|키))(?:가|이|는|은)? (?:유효하지 않|잘못되|올바르지 않|만료되)|(?:잘못된|유효하지 않은|올바르지 않은|만료된) (?:api ?키|토큰|인증 ?(?:정보|키))|인증(?:에|이)? 실패|권한이 (?:없|거부)|(?:접근|액세스)(?:이|가)? 거부/],
  ru: [/(?:api-?ключ|ключ api|токен)[а-яё ]{0,30}(?:неактивен|недействител|неверн|ист[её]к|отозван)|неверный (?:api-?)?ключ|ошибка авторизации(?! (?:платеж|платёж|карт|оплат))|не авторизован(?! (?:банком|платеж|платёж))/],
});

/**
 * A client's "Login failed" label names the step that failed, not why: read after the generic server-error words, so
 * "Login failed: The server had an error while processing your request" is the server's failure, and "login fail:
 * carry the API secret key in the X-Api-Key header" an auth failure.
 */
export const LOGIN_FAILED_RULES: readonly TextRule[] = family('text.auth', 'auth', [/login fail(?:ed|ure)?(?![a-z])/]);

/** TLS certificate failures on our side of the connection. */
export const TLS_RULES: readonly TextRule[] = family('text.tls_certificate', 'tls_certificate', {
  en: [
    /certificate (?:has )?expired|self[- ]signed certificate|unable to verify (?:the )?first certificate|(?:ssl |tls )?certificate verification (?:failed|error)/,
    /unable to get (?:local )?issuer certificate|certificate verify failed|hostname\/ip does not match certificate/,
    /certificate is not (?:yet )?valid|x509: certificate|tls: failed to verify|certificate signature failure/,
    // JVM clients (OkHttp, the JDK): the peer's certificate does not match the host, or its chain cannot be built
    /sslpeerunverifiedexception|hostname [a-z0-9.*-]{1,100} not verified|pkix path building failed|certpathvalidatorexception|unable to find valid certification path|suncertpathbuilderexception|trust anchor for certification path not found/,
    // curl: the certificate names other hosts
    /no alternative certificate subject name matches|subjectaltname does not match|certificate subject name [^|]{0,80}does not match/,
    // rustls / reqwest: "invalid peer certificate: UnknownIssuer"
    /invalid (?:peer )?certificate(?![a-z])|unknownissuer|certificate (?:is )?not trusted|untrusted certificate/,
    // .NET: "The SSL connection could not be established … The remote certificate is invalid because of errors in the certificate chain"
    /remote certificate (?:is invalid|was rejected)|errors in the certificate chain|ssl connection could not be established/,
    /(?<![a-z])err_cert_[a-z_]{2,30}|pkix path validation failed|validatorexception|authority that is not trusted|unknown (?:certificate )?authority/,
  ],
  // Windows' own words ("An SSL error occurred and a secure connection to the server cannot be made"), a certificate refused
  zh: [/发生 ?ssl ?错误|无法建立到该服务器的安全连接|证书已过期|证书无效|证书不受信任|证书验证失败/],
});
