/**
 * `@understudy/provider-emulator`: a real HTTP server that speaks the OpenAI, Anthropic and Gemini wire formats
 * (streaming included) and plays scripted faults. Other projects spawn `node tools/provider-emulator/dist/main.js`;
 * this entry is for in-process use by the emulator's own tests and tools.
 */
export { startEmulator } from './server.js';
export type { EmulatorHandle, EmulatorOptions } from './server.js';
export type { EmulatorStats, RecordedRequest } from './control.js';
export { EMPTY_SCRIPT, EmulatorScriptError, parseEmulatorScript } from './script.js';
export type { EmulatorApi, EmulatorRoute, EmulatorScript, EmulatorStep, OAuthStep } from './script.js';
