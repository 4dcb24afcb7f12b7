/**
 * Text families about time, transport, the provider's own failures, aborts and empty answers.
 *
 * docs/policy.md#failover-reasons splits the transient bucket three ways: `timeout` is time or transport (a TTFT or stall timeout, a
 * reset or refused connection, a stream that ended early, an abort caused by a timeout); `server_error` is the
 * provider's own failure (an internal-error message, a provider-completed `stop reason: error`); `overloaded` is
 * capacity (in quota-rules). Seed 002 adds: the bare runtime message "An unknown error occurred" is
 * failover-worthy (a stream that ended without details: timeout); transport-shaped finish reasons
 * (`abort`, `network_error`, `malformed_response`) are timeouts; a user's explicit abort ends the turn.
 *
 * Patterns are lower case with bounded quantifiers only.
 */
import { hasDefiniteResponse } from '../../evidence.js';
import type { Evidence } from '../../evidence.js';
import type { TextRule } from '../rule.js';
import { family } from '../rule.js';

/** Time and transport words describe the failure only when no definite response arrived ({@link hasDefiniteResponse}). */
function noDefiniteResponse(evidence: Evidence): boolean {
  return !hasDefiniteResponse(evidence);
}

/** Time: timeouts, deadlines, stalls, transport-shaped finish reasons. Read before `ABORT_RULES`, so "aborted due to
 * timeout" is a timeout. A time word that is an option key of a printed configuration (`timeout: 0`,
 * `clarifyTimeoutError: false` in an axios error dump, a Python dict's `'timeout': 7` or `None`) is a setting, not an event. */
export const TIMEOUT_RULES: readonly TextRule[] = [
  ...family('text.finish_reason_transport', 'timeout', [
    /finish_?reason:? ["']?(?:abort|aborted|network_error|malformed_response)(?![a-z_])|^reason: abort\.?$/,
  ]),
  ...family('text.unknown_error_occurred', 'timeout', [
    /^(?:error: )?an unknown error occurred\.?$/,
    /stop ?reason:? ["']?aborted(?![a-z_])/,
  ]),
  ...family('text.timeout', 'timeout', {
    en: [
      /(?<![a-z])(?<!--|\x60|keyerror: ['"]|attribute ['"])timed? ?out(?![a-z])(?!\x60)(?!(?:_[a-z]{1,8})?["']?(?::|=) ?(?:\d|true|false|null|undefined|none(?![a-z])))|time-out|timeouterror(?!: ?(?:true|false))/,
      /(?<![a-z])timeoutexception(?![a-z])|(?:connection|request|response) took longer than \d|deadline exceeded|deadline expired before (?:the )?operation could complete|took too long|(?<![a-z])timing out|(?:didn't|did not|failed to) (?:respond|send (?:a |any )?response) (?:in time|within (?:the )?(?:allotted |configured )?\d{1,6} ?(?:seconds|secs?|s|ms|minutes|mins?)(?![a-z]))|aborted due to (?:a )?timeout/,
      /time to first token|first[ -]token timeout|(?:stream|response) stalled|stall(?:ed)? (?:timeout|detected)|(?<![a-z])ttft(?![a-z_])/,
      // a serverless platform's own time limits around the call (Vercel's initial response, Workers' and Supabase's CPU
      // time, Modal's runner start)
      /(?:did not|didn't|failed to) return an (?:initial )?response within \d|cpu time limit (?:exceeded|reached)|exceeded (?:the |its )?cpu time limit|(?:initiali[sz]ing|starting up|booting) for too long/,
      // exception classes that glue the phase to the word (httpx ReadTimeout, urllib3 ConnectTimeoutError, Java SocketTimeoutException)
      /(?:read|connect|connection|write|pool|socket|gateway|request|response|upstream|idle|http)timeout(?:error|exception)?(?![a-z])/,
    ],
    zh: [/超时|請求逾時|信号灯超时/],
    ko: [/(?:요청|응답|연결) ?시간(?:이)? ?초과|시간 초과/],
    ru: [/превышено время ожидания(?! (?:оплаты|платежа))(?<!если [^.|]{0,40}превышено время ожидания)|время ожидания (?:истекло|превышено)|тайм-?аут (?:запроса|соединения|ожидания)|(?:истек|превышен)[а-яё]{0,2} тайм-?аут/],
  }, noDefiniteResponse),
];

/** True when a wrapper was peeled to a provider error that carries an error status (400 or more) of its own. */
function innerErrorWithStatus(evidence: Evidence): boolean {
  return evidence.wrapped !== null && evidence.innerStatus !== null && evidence.innerStatus >= 400;
}

/**
 * Transport failures: resets, refused connections, streams that ended early. Read after `ABORT_RULES`, so an
 * explicit abort reported through a "stream error" wrapper stays an abort; stepping aside when a definite response
 * status was given or stated ({@link noDefiniteResponse}).
 */
export const TRANSPORT_RULES: readonly TextRule[] = [
  ...family('text.transport', 'timeout', {
    en: [
      // errno names as whole words (Bedrock's ResourceNotFoundException holds the letters of ENOTFOUND)
      /(?<![a-z])(?:econnreset|econnrefused|etimedout|esockettimedout|econnaborted|ehostunreach|ehostdown|enetunreach|enetreset|enetdown|enotfound|eai_again)(?![a-z])|(?<![a-z])epipe(?![a-z])/,
      // (a server's log of a request it dropped when the client closed the connection: the client gave up waiting, or was stopped)
      /(?:due to|because of) (?:the )?client closing the connection|socket hang up|other side closed|connection (?:was )?(?:reset|refused|closed|aborted|terminated|error|lost|dropped|interrupted)|socket connection was closed/,
      /(?<![a-z])(?:network|transport|fetch|socket) error(?! due to high traffic)|fetch failed|(?:typeerror|fetch(?:ing)? from [^ ]{1,300}): load failed(?![a-z])|network_error|network is unreachable|stream_read_error/,
      /(?<![a-z])stream (?:was )?(?:disconnected|ended|closed|terminated|interrupted|cut|aborted)(?: before| unexpectedly| prematurely| early| without)?|premature(?:ly)? (?:close|closed|end|ended|eof)/,
      /disconnect\/reset before headers|upstream connect error|(?:unexpected|early) eof|incomplete (?:chunked )?(?:read|response|stream)/,
      /(?:cannot|can't|could not|couldn't|unable to) reach (?:the )?(?:llm |model |api |upstream )?(?:endpoint|server|host|api|upstream|backend|service)|error connecting to (?:the )?(?:remote )?(?:server|host|api|upstream|backend)|connection (?:with|to) the server could not be establish|socket so_error (?:5[0-9]|6[01])(?![0-9])|unable to connect|failed to connect|could not connect|cannot connect|connection error|connection failed|(?:actively|forcibly) (?:refused|closed)|tcp connect error|error trying to connect|(?:tls |ssl )?handshake (?:eof|reset|timed out)|(?:all )?connection attempts failed|(?:ended|closed) prematurely|response ended (?:early|unexpectedly)|(?:having )?trouble (?:connecting|reaching)|socket disconnected before (?:the )?secure tls connection|network request failed|(?<![a-z])connecterror(?![a-z])|failed to establish a new connection|failed to open (?:a )?new connection(?<!if [a-z ]{0,30}failed to open (?:a )?new connection)|(?<![a-z])(?:connectionrefusederror|connectionreseterror|connectionabortederror|newconnectionerror|clientconnectorerror|serverdisconnectederror|remotedisconnected|chunkedencodingerror|incompleteread|connectexception|noroutetohostexception)(?![a-z])|winerror 100(?:49|53|54|60|61)|broken pipe|closed (?:the )?connection before|(?:did not|didn't) receive (?:a |the )?(?:done|final|success|complete|completion)|response remained incomplete|error processing (?:the )?stream|failed to execute (?:the )?http request|error reading (?:the )?(?:stream )?response|websocket: close \d{4}|network (?:disconnected|connection (?:was )?lost)|web server is down|origin is unreachable/,
      // (gRPC's "RPC that terminated with: status = …" names the status it ended with, not a transport failure)
      /(?:typeerror: )?terminated$|(?<![a-z])(?<!process has )(?<!process )(?<!user )(?<!rpc that )(?<!permanently )terminated(?: by peer)?(?![a-z])/,
      /ended without sending any (?:chunks|data|bytes)|cancelled mid-stream|failed after (?:repeated |multiple )?(?:internal )?retries/,
      // NSS's end of file during a TLS read (curl, Firefox), a Go dialer that could not open the socket
      /pr_end_of_file_error|pr end of file error|encountered end of file|dial tcp(?: [^ ]{1,80})?: (?:connect|i\/o timeout|lookup)/,
      // a Rust reqwest client that could not send, a Go relay whose upstream request failed (one-api, new-api)
      /error sending request(?: for url)?|(?<![a-z])do request failed|incomplete json segment|clientpayloaderror|response payload is not completed/,
      // name resolution (Go, Python, curl, Java, Node)
      /no such host|not such host is known|name or service not known|temporary failure in name resolution|could not resolve host|unknownhostexception|nodename nor servname|name resolution failed|dns (?:lookup|resolution) failed/,
      // browsers' and runtimes' fetch failures, and servers that hung up without an answer
      /failed to fetch(?! ?[a-z(])|networkerror when attempting to fetch|^(?:typeerror: )?load failed\.?$|(?<![a-z])err_(?:connection_[a-z_]{2,20}|internet_disconnected|network_changed|name_not_resolved|empty_response|incomplete_chunked_encoding|http2_protocol_error|http2_ping_failed|quic_protocol_error)|internet connection appears to be offline/,
      // an old OpenAI client's connection error, a fetch body that broke while read, nginx's and Kong's upstream that could not be reached
      /error communicating with|error in input stream|while connecting to upstream|(?:https?:\/\/[^ ]{1,200}|[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,5}(?::\d{2,5})?|server|host|endpoint|api|upstream|provider|service|backend) (?:could not|couldn't|cannot|can't) be reached(?! by)/,
      // a TLS record corrupted or cut in transit (Go's "remote error: tls: bad record MAC"): the connection, not the certificate
      /(?<![a-z])bad record mac(?![a-z])/,
      // an answer the client saw stop mid-way, in Claude's apps' words
      /(?<![a-z])response was interrupted/,
      // a browser that withheld the response for its CORS policy: no answer reached the caller
      /blocked by cors policy/,
      // an SSE stream that broke while read, a body that ended before any data or before its JSON closed (node-fetch), no
      // network at all, a DNS lookup that failed, Elixir's TransportError, Node's closed socket, a batch that expired unrun
      /error while (?:iterating over|reading) (?:the )?(?:sse )?stream|ended before any (?:complete )?data|invalid json response body at|not connected to the internet|net::err_failed|getaddrinfo failed|server misbehaving|(?<![a-z])transporterror(?![a-z])|batch (?:has )?expired|err_socket_closed|socket is closed/,
      /server disconnected|remoteprotocolerror|closed the connection unexpectedly|ssleoferror|eof occurred in violation of protocol|(?:post|get|put) "[^"]{1,300}": eof$/,
      // Go's io.EOF printed after the call that hit it ("read tcp …: EOF", "CreateChatCompletion err=error, EOF", "failed to
      // create chat completion: EOF"), a stream event cut at its first byte (not a whole body that was empty: an empty answer)
      /(?<![a-z])err(?:or)?[=:] ?(?:error, )?eof(?![a-z])|failed to [a-z ]{1,40}: (?:unexpected )?eof(?![a-z])(?! while parsing)|failed to [a-z ]{0,40}stream [a-z ]{0,20}: eof while parsing|(?:read|write) tcp [^ ]{1,120}: eof(?![a-z])/,
      // hyper and rustls losing a response mid-body ("error reading a body from connection", "cannot decrypt peer's message")
      /error reading a body from connection|cannot decrypt peer's message/,
      // Node's `Error: aborted` raised where the socket closed under a response still being read (socketCloseListener)
      /(?<![a-z])aborted\s{1,8}(?:at [^()\s]{1,80} \([^()]{1,160}\)\s{1,8}){0,4}at (?:tlssocket|socket)\.socketcloselistener/,
      // Go's HTTP/2 transport losing the stream ("http2: response body closed", "http2: server sent GOAWAY"), and a stream
      // that stopped before its closing event (Responses' `response.completed`, Anthropic's `message_stop`)
      // a TLS handshake that failed on the way (nginx's "SSL_do_handshake() failed … while SSL handshaking to upstream", an
      // alert from the peer), an HTTP/2 stream curl saw reset, curl's transport exit codes (7, 18, 35, 52, 56, 92)
      /ssl_do_handshake\(\) failed|alert handshake failure|while ssl handshaking|http\/2 stream \d{1,6} was not closed cleanly|(?<![a-z])curl: \((?:7|18|35|52|56|92)\)/,
      /http2: (?:response body closed|client connection (?:lost|force closed)|server sent goaway|client conn (?:is )?(?:closed|not usable))|(?:completed|ended|closed|finished|terminated) without (?:a |the |receiving (?:a |the )?)?(?:response\.completed|response\.done|message_stop|\[done\]) event/,
    ],
    // Chinese OS and relay wordings: refused (积极拒绝, 拒绝网络连接), cannot connect, no answer from the upstream
    zh: [/网络(?:错误|异常)|连接(?:失败|超时|中断|被重置|错误|异常|断开)|积极拒绝|拒绝(?:了)?(?:网络)?连接|无法连接|没有等到.{0,12}(?:回应|响应)|(?:未|没有)收到.{0,8}(?:回应|响应)|上游.{0,8}(?:无响应|没有响应|超时)/],
  }, noDefiniteResponse),
  // a "stream error" label ("OpenRouter Mid-Stream Error: {…}") says where an error surfaced: around a provider's error
  // that carries an error status of its own (`"code": 502`), that error and its status say what it was
  ...family('text.transport', 'timeout', [/(?<![a-z])stream error/], (evidence) => noDefiniteResponse(evidence) && !innerErrorWithStatus(evidence)),
  // a gateway saying it got nothing back from the upstream (Cloudflare AI Gateway 2005) says so whatever status it
  // put on its own answer: no response of the provider's arrived
  ...family('text.transport', 'timeout', [/failed to get (?:a )?response from (?:the )?(?:provider|upstream|server|model|backend)/]),
];

/**
 * Ollama's server lost the model runner it forwards each request to: its "POST predict" call (or "do load request" while
 * loading) to the runner's local port ended in an EOF, a reset or a refused connection (`POST predict: Post
 * "http://127.0.0.1:41401/completion": EOF`). The runner process died
 * under the request — the provider's own failure, not the caller's connection; read before {@link TRANSPORT_RULES},
 * whose EOF and reset words it shares. (The same call ending in "context canceled" is the caller's abort.) See
 * docs/policy.md, "A local runtime that lost its runner".
 */
export const RUNNER_LOST_RULES: readonly TextRule[] = family('text.runner_lost', 'server_error', [
  /(?:post predict|do load request): post "[^"]{1,300}": (?:(?:unexpected )?eof|(?:read tcp [^ ]{1,120}: )?(?:read: |wsarecv: )?(?:(?:unexpected )?eof|connection reset|an existing connection was forcibly closed)|dial tcp [^ ]{1,120}: connect: connection refused)/,
]);

/**
 * A relay's own label ("Upstream error:", "upstream failure") or a client's log label ("[error] Server error: 401 {…}")
 * in front of the provider's error is no cause when the deciding status is a client error (4xx): the status, or the
 * provider's own words, decide (docs/policy.md, "How the
 * classifier reads a failure": the inner status decides).
 */
function notUnderClientStatus(evidence: Evidence): boolean {
  return evidence.status === null || evidence.status < 400 || evidence.status >= 500;
}

/** The provider's own failures. */
export const SERVER_ERROR_RULES: readonly TextRule[] = [
  ...family('text.finish_reason_error', 'server_error', [
    /(?:unhandled )?stop ?reason:? ["']?error(?![a-z_:])|finish_?reason:? ["']?error(?![a-z_:])|^reason: error\.?$/,
  ]),
  ...family('text.server_error', 'server_error', {
    en: [
      /internal (?:server )?(?:error|failure)|(?<![a-z])internalfailure(?![a-z])|an internal error has occurred/,
      // vLLM's engine process died under the request (EngineDeadError, "failed (engine dead)")
      /(?<![a-z])engine ?dead(?:error)?(?![a-z])/,
      // llama.cpp's runtime stopped on a failed assertion of its own (GGML_ASSERT, "ggml.c:9067: assert(!isnan(x)) failed")
      /(?<![a-z])ggml_assert(?![a-z])|ggml[a-z_-]{0,20}\.c(?:pp)?:\d{1,6}: (?:ggml_)?assert\(/,
      // a server that could not encode its own answer (Ollama's "failed to encode response: json: unsupported value: NaN")
      /failed to (?:encode|marshal|serialize) (?:the )?response/,
      /bad gateway|origin error|error making (?:the |a )?prediction|grpc_status ?[:=] ?13(?![0-9])/,
      /(?:an )?(?:unexpected |internal )?error (?:occurred|happened|has occurred) on our (?:end|side)|segfault(?:ed)?(?![a-z])|(?:model|runner|inference|worker|backend) process (?:has )?died/,
      /an error occurred while processing your request|unable to process (?:your |the )?request|something went wrong (?:on our (?:end|side)|while processing)|server had an error/,
      // Google's error page: "502. That's an error. The server encountered a temporary error …"
      /(?:encountered|experienced|experiencing) a temporary error|temporary server error/,
      /unexpected error (?:has )?occurred (?:while processing|during processing|internal to)|unexpected error (?:during|while) processing|an error occurred while generating (?:the )?response/,
      /experiencing (?:server|technical|internal|service) (?:issues|problems|difficulties|errors)/,
      /web server is returning an unknown error|unknown error, 5\d\d/,
      /(?:model )?runner has unexpectedly (?:stopped|exited|terminated)|runner process (?:has )?terminated|runner process (?:is )?no longer running|(?:an )?(?:unknown )?error was encountered while running the model|failed to start a llama runner|requires more system memory|failed to (?:load|launch|start) (?:the )?model|could not load (?:the )?model|error loading model|failed loading (?:the )?model/,
      // inference engines that died (vLLM's engine loop, a segfault, a Go panic, llama.cpp's decode failing)
      // (not a Go panic: a client's own panic reads the same)
      /engine loop (?:has )?died|asyncenginedeaderror|background loop has errored|segmentation fault|core dumped|llama_decode returned/,
      // a server that is not running, an actor's remote server gone (Xinference), a Cloudflare Worker that threw (1101), a server's own Python bug
      /(?:server|service|backend|engine) is not running|remote server [^ ]{1,80} closed|worker threw (?:an )?exception|local variable '[^']{1,60}' referenced before assignment/,
      /(?:model|worker|runner|process|server|function) (?:has )?crashed|memory limit of \d{1,6} ?(?:[kmg]i?b?|[kmg]) exceeded|prediction failed|(?<![a-z])prediction-error(?![a-z])|(?<![a-z])modelerror(?![a-z])|failed to call a function|fatalworkerexception|(?<![a-z])cuda (?:error|out of memory)|out of memory/,
    ],
    zh: [/服务器(?:内部)?错误|内部错误|系统错误|系统异常|服务异常|(?:响应|返回)(?:格式|数据)(?:错误|异常)/],
    ko: [/(?:내부 )?서버 (?:내부 )?오류(?:가 발생)?|내부 오류(?:가 발생)?/],
  }),
  // (httpx's "Server error '529 ' for url" is its label for any 5xx: the status in it speaks)
  // a provider reporting its own instability under any status (Bedrock's Nova Sonic: "ValidationException: System
  // instability detected. Please retry your request." under a 400)
  ...family('text.server_error', 'server_error', [/(?<!no )system instability (?:was )?detected/]),
  // an on-device model service's own failure (Android AICore's INFERENCE_ERROR … "Inference failed.")
  ...family('text.server_error', 'server_error', [/(?<![a-z])inference failed\.?$/], notUnderClientStatus),
  // "the server encountered an (internal) error" names no cause beside a client status (a 429's or a 401's own), nor
  // as a condition ("if the server encountered an error, retry")
  ...family('text.server_error', 'server_error', [/server (?:has )?encountered an? (?:unexpected |internal )?error(?<!if (?:the |a )?server (?:has )?encountered an? (?:unexpected |internal )?error)/], notUnderClientStatus),
  // FastChat's fixed banner for any failure of its model worker ("NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE
  // OR REFRESH THIS PAGE."): the worker failed; the detail after it, when a time word, is read first
  ...family('text.server_error', 'server_error', [/network error due to high traffic/]),
  ...family('text.server_error', 'server_error', [/upstream (?:server )?(?:error|failure)|(?<![a-z])server error(?! '\d)|backend error|(?<![a-z])system error(?![a-z])/], notUnderClientStatus),
];

/**
 * A finish reason of `error` that a client could not parse ("choices.0.finish_reason … input_value='error'", a
 * pydantic validation of the streamed answer): the provider ended the generation with an error. Read with the
 * specific families, before the format family would read "validation error" as the request's fault.
 */
export const REPORTED_FINISH_ERROR_RULES: readonly TextRule[] = family('text.finish_reason_error', 'server_error', [
  /finish_?reason[^|]{0,120}?input_value='error'/,
]);

/**
 * An abort word behind an error status of 400 or more is a relay's or an upstream's ("upstream request aborted",
 * Go's "context canceled" in a one-api 502): the caller who got that status did not abort.
 */
function noErrorStatus(evidence: Evidence): boolean {
  return clientClosedOrBelow400(evidence.inputStatus) && clientClosedOrBelow400(evidence.innerStatus);
}

/** No status, a status under 400, or 499 ("client closed request": the status of an abort, when the words say so). */
function clientClosedOrBelow400(status: number | null): boolean {
  return status === null || status < 400 || status === 499;
}

/** Explicit aborts by the caller (not caused by a timeout). */
export const ABORT_RULES: readonly TextRule[] = family('text.abort', 'abort', {
  en: [
    // (a function named handleAbortError is no AbortError)
    // (an AbortSignal aborted with no reason prints "signal is aborted without reason")
    /request (?:was )?aborted|operation (?:was )?aborted|(?<![a-z])aborterror|user ?aborted|aborted by (?:the )?(?:user|client|caller)|signal (?:is|was|has been) aborted(?<!if (?:the )?signal (?:is|was|has been) aborted)/,
    /cancel(?:l)?ed by (?:the )?(?:user|client|caller)|client (?:disconnected|cancel(?:l)?ed)|request (?:was )?cancel(?:l)?ed/,
    /interrupted by (?:the )?user|cancellederror|cancelled by cancel scope|operation (?:was )?cancel(?:l)?ed/,
    // a Python KeyboardInterrupt or a Go caller's cancelled context (a Go deadline is "context deadline exceeded": timeout)
    // a failed request's "Reason: Canceled" line (VS Code's chat), axios's CanceledError, an engine's log of a request it
    // aborted (not a server's or an upstream's abort)
    /requested cancel(?:l)?ing (?:the )?generation|cancel(?:l)?ed (?:the )?generation/,
    /request failed[^|]{0,200}?reason: cancel(?:l)?ed(?![a-z])|(?<![a-z])cancelederror|(?<![a-z])err_canceled(?![a-z])|keyboardinterrupt|(?<![a-z])context cancel(?:l)?ed(?![a-z])|(?<![a-z])(?<!(?:server|upstream|provider|backend) )aborted request(?![a-z])/,
    // a client's own stream cancelled (OkHttp's event-source listener), a cancel reason written as a code
    /(?<![a-z])stream (?:was )?cancel(?:l)?ed|(?<![a-z])user_cancel(?:l)?ed(?![a-z])|(?<![a-z])responseaborted(?![a-z])/,
    // the person at the client declined what was asked of them (MCP's "User rejected sampling request", "The user has
    // denied permission to call this method")
    /(?<![a-z])user (?:has )?(?:rejected|declined|denied) (?:the )?(?:sampling request|sampling|tool call|request|permission to)/,
    // a browser's fetch body aborted under the reader, a web stream enqueued after its consumer cancelled, a terminal's ^C
    /bodystreambuffer was aborted|invalid state: controller is already closed|(?:^|\s)\^c(?:\s{0,4}\^c){0,3}\s{0,4}traceback \(most recent call last\)/,
  ],
  zh: [/(?:用户|客户端)(?:已)?(?:取消|中止)/],
}, noErrorStatus);

/** Only for a failure with no status or a 2xx status: anything else has a usable status. */
function noUsableStatus(evidence: Evidence): boolean {
  return evidence.status === null || (evidence.status >= 200 && evidence.status < 300);
}

/**
 * Empty-answer words are read only when no completion was parsed: a parsed completion's shape already said whether it
 * carried output, and its generated text is blanked, so its `"content": ""` is no evidence of an empty answer.
 */
function unparsedWithoutUsableStatus(evidence: Evidence): boolean {
  return evidence.completion === null && noUsableStatus(evidence);
}

/**
 * A client saying outright that the answer held nothing: read with the specific families, before quota words a
 * client may add as guesses ("may be caused by content filtering, rate limiting …").
 */
export const STATED_EMPTY_RULES: readonly TextRule[] = family(
  'text.empty_response',
  'empty_response',
  {
    en: [
      /no generation(?:s| chunks?)? (?:were |was )?(?:found|returned)|(?:returned|received) a response with no (?:choices|candidates|content)|(?:response|stream) contained no (?:choices|candidates|content|tokens|output)|no object generated|, ?but none (?:was|were) returned|(?:ended|finished|completed) with (?:an )?empty (?:response|answer|reply|output|content)|(?:ended|finished) without (?:a |any )?(?:content|output|text|answer|response(?!\.[a-z]))|returned an empty (?:stream|response|answer|reply|completion)|no response from (?:the )?model|no (?:response|answer|reply|output|content|text) (?:was )?returned|(?:received|returned|got) (?:an )?empty (?:model |llm |api )?(?:response|answer|reply|output|completion)|(?:did not|didn't) provide any (?:assistant )?(?:messages?|response|content|output|text)|completed without (?:a |any )?(?:valid |usable |useful )?(?:result|response(?!\.[a-z])|output|content|text)|(?:ended|finished) before producing (?:any )?(?:valid |usable |useful )?(?:content|output|text)|(?:did not|didn't) include (?:any )?(?:message )?(?:content|text)|without (?:writing|producing|generating) any (?:answer )?(?:text|output|content)|expected at least one candidate|(?:returned|received) no candidates|no candidates (?:were |was )?returned|(?:did not|didn't) contain any (?:text|content|output)|(?:message|response|answer|reply) (?:has|had|contains|contained) no (?:content|text)|(?:response|output|message)\.(?:text|content) is (?:empty|undefined|null|none)|(?:received|generated|returned|produced) 0 (?:output |completion )?tokens|missing (?:the )?['"]?(?:choices|candidates)['"]? (?:key|field)|(?:none|nothing|no tokens) left for the (?:response|answer)|no (?:images?|results?|outputs?) (?:were |was )?(?:generated|returned|produced)|(?:response|result|output)[^|]{0,40}(?:none|null) or empty|missing at path: \$\.candidates\[\d{1,2}\]\.content|null value for .?(?:choices|candidates)|response body (?:was|is) empty|returned 200(?: ok)? but|no (?:text|content|output|response|answer|reply|completion) (?:was )?generated|(?:doesn't|does not|didn't|did not) return any (?:data|content|text|output|response|completion)|(?:includes|contains|has|had|returned|with) no (?:completion )?candidates|(?<![a-z])(?:llm_)?(?:model_)?response_empty(?![a-z])|returned no (?:final |assistant )?(?:answer|output|message)s?(?![a-z])|(?:didn't|did not) return (?:a|any) (?:message|output|answer)|no parseable response|before returning (?:any )?usable output|(?:missing|missing or empty|empty) ['"]?choices['"]? (?:array|list)/,
      // a client that got no tokens at all, OpenAI's parse helper that hit the length limit before any usable content
      // an answer that held only reasoning, as a client words it; a relay's "Empty provider response"; Vertex's printed malformed call
      /only (?:thinking|reasoning) content without any (?:text|content|output)|(?:reasoning|thinking|chain-of-thought)[^.|]{0,60}but no (?:actual )?(?:response|answer|text|output)|empty provider response|(?<![a-z_])empty_message(?![a-z_])|content (?:field )?(?:is )?missing from (?:the )?(?:[a-z]{1,20} )?response|content has no parts|(?:model|llm|provider)(?: [^ |]{1,80}){0,8}? produced no (?:actionable |usable |valid |useful |visible )?(?:output|answer|text|content)|no response data (?:from|received|returned)|provider did not send back a response|(?<![a-z])apiemptyresponseerror(?![a-z])|finish message: malformed function call/,
      /"content": ?"", ?"reasoning_content": ?"[^"]|empty[ _]response(?![a-z]).{0,60}?finish_reason[=:] ?length/,
      // serde reading an empty body ("EOF while parsing a value at line 1 column 0"; an empty stream event is a cut stream),
      // Java calling into a null response
      // (a JavaScript client reading `choices` of an answer that had none)
      /(?<![a-z])choices is (?:undefined|not iterable|null)|(?<!(?:stream|event)[^|]{0,60})eof while parsing a value at line 1 column 0|because "(?:response|content|choices|message|completion)" is null/,
      /no (?:images?|content|text|output) (?:was |were )?found in (?:the )?(?:api |model )?response|assistant message (?:was |is )?empty|(?:nil|null|empty) content and no tool calls|(?:response|completion) with 0 (?:output |completion )?tokens/,
      /returned zero tokens|empty (?:or invalid )?response from (?:the )?(?:llm|model|api|server|endpoint|upstream)|ended without producing a [a-z]{1,30}message|(?<![a-z])lengthfinishreasonerror(?![a-z])|only reasoning content with no (?:text|content|output)|with no text output/,
      // a candidate printed without its content: a Python repr that opens at the finish reason, pydantic's missing field
      /candidates=\[candidate\(\s{0,8}finish_reason=|candidates\.\d{1,2}\.content\s{1,4}field required/,
      // (a validation error of a request model, "… for ChatCompletionRequest", is the request's shape, not an empty answer)
      /(?<!validation errors? for [a-z_]{0,60}(?:request|params|input)(?![a-z])[^|]{0,300})(?<![a-z])(?:text|content|output_text|completion) ?input should be a valid string \[type=string_type, input_value=none/,
    ],
    // a relay's own words for an answer without choices ("缺少或空的 choices 数组")
    zh: [/(?:缺少|空的) ?choices|choices ?(?:数组)?为空/],
    ru: [/(?:никакого|пустой) ответ[а-яё]{0,2}(?: не (?:был[а-яё]{0,2} )?(?:возвращ|получ)[а-яё]{1,4})?|ответ[а-яё]{0,2} не (?:был[а-яё]{0,2} )?(?:возвращ|получ)[а-яё]{1,4}/],
  },
  (evidence) => evidence.status === null || (evidence.status >= 200 && evidence.status < 300),
);

/** The provider answered with nothing usable (the model-failover doc: `empty_response`). */
export const EMPTY_RESPONSE_RULES: readonly TextRule[] = family(
  'text.empty_response',
  'empty_response',
  {
    en: [
      /textlen=0(?!\d)|no json structure found in (?:the )?(?:llm )?response/,
      /"(?:choices|candidates|content|output)": ?\[ ?\]|"response": ?"" ?"?,/,
      /(?<!<)(?:empty|blank) (?:model |llm |api )?(?:response|completion|reply|output|content|message(?!>)|body|stream|answer)|(?:response|completion|output|reply|body)(?: content| text| message)? (?:was |is )?empty/,
      /no (?:content|output|text|choices|candidates|completion) (?:in|returned|was returned|from|received)|returned (?:an )?empty|returned no (?:content|output|text|choices)/,
      /(?:response|answer) (?:contained|has|with) no (?:choices|candidates|content)|(?:did not|didn't) return a response|no object generated/,
      /no (?:response|answer|reply|text) .{0,60}?(?:stop_reason|finish_reason|finishreason)[=:]/,
      /["']content["']: ?(?:null|none) ?(?:, ?["'](?:refusal|reasoning_content|tool_calls|function_call|audio)["']: ?(?:null|none) ?){0,4}\} ?, ?["']finish_reason["']: ?["'](?:stop|length|end_turn|eos)["']/,
      /(?:completionoutput|choices|candidate|message)\(.{0,160}?(?:text|content)=(?:''|""|none)[,)]|chatcompletion\(id='[^']{0,80}', choices=(?:none|\[\])|content=content\( ?role='model' ?\)/,
      // a Go client's %+v print of a choice whose content is empty (the next field follows `Content:` at once)
      /message:\{role:assistant content: [a-z]{2,20}:/,
      // Gemini candidates that open with their finish reason: no content came before it
      /"candidates": ?\[ ?\{ ?"finishreason": ?"(?:stop|max_tokens)"/,
      // a Python client that indexed the first choice or candidate of an answer that had none
      /(?<![a-z])list index out of range(?![a-z])/,
    ],
    zh: [/响应为空|返回(?:为)?空|(?:parts|content|内容|回复|回答|输出) ?为空|无回复|空回复|没有回复/],
  },
  unparsedWithoutUsableStatus,
);

/**
 * Empty answers read from a printed answer object: a field that looks ahead for the stop beside it. Each is a family of
 * its own, so the trigram pre-test skips it on texts without its literals, and the look-ahead is bounded, so a
 * megabyte of `text: null, text: null, …` costs a bounded scan per window (read right after {@link EMPTY_RESPONSE_RULES}).
 */
export const PRINTED_EMPTY_RULES: readonly TextRule[] = [
  // an empty answer field beside a normal stop, in JSON or a repr ("result":"", "stop_reason":"end_turn"; output=[] … status='completed')
  ...family(
    'text.empty_response',
    'empty_response',
    [/["'](?:result|answer|output_text|response|completion)["']: ?["']{2} ?,.{0,120}?["'](?:stop_?reason|stopped_?reason|stoppedreason|finish_?reason|done_?reason|status)["']: ?["'](?:end_turn|stop|final|completed|length|max_tokens|load)["']/],
    unparsedWithoutUsableStatus,
  ),
  ...family('text.empty_response', 'empty_response', [/(?:^|[ (,])output=\[\],.{0,300}?status='completed'/], unparsedWithoutUsableStatus),
  ...family('text.empty_response', 'empty_response', [/content: \{role: model\}/], unparsedWithoutUsableStatus),
  // an answer object printed in any notation (a Python repr, a Java toString, a PHP dump, JSON) whose text is empty and
  // that stopped normally or made no tool call: "content=Content() … finish_reason=<FinishReason.STOP", "AiMessage {
  // text = null … finishReason=STOP", "+text: \"\" … +toolCalls: []"
  ...family(
    'text.empty_response',
    'empty_response',
    [/(?<![a-z_])(?:text|content|answer|output_text|result)["']? ?(?:=|:|=>) ?(?:""|''|null|none|nil|content\(\))(?![a-z0-9_]).{0,160}?(?:finish_?reason|stop_?reason)["']? ?(?:=|:|=>)? ?[<'"[{(]?(?:[a-z]{1,20}\.)?(?:stop|length|max_tokens|end_turn|eos)(?![a-z])/],
    unparsedWithoutUsableStatus,
  ),
  ...family(
    'text.empty_response',
    'empty_response',
    [/(?<![a-z_])(?:text|content)["']? ?(?:=|:|=>) ?(?:""|''|null|none|nil)(?![a-z0-9_]).{0,200}?(?:tool_?calls|toolexecutionrequests)["']? ?(?:=|:|=>) ?\[ ?\]/],
    unparsedWithoutUsableStatus,
  ),
  // an empty answer beside a count of zero completion tokens
  ...family('text.empty_response', 'empty_response', [/"content": ?"".{0,120}?"completion_tokens": ?0(?![0-9])|(?<![a-z_])(?:response|content|text): "",.{0,160}?output_tokens: 0(?![0-9])/], unparsedWithoutUsableStatus),
];
