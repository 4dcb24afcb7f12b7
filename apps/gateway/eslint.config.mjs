import baseConfig, { unpublishedProgramConfig } from '../../eslint.config.mjs';

// src/demo.ts (`pnpm demo`) is left out of the published files (package.json `!dist/demo.js`) and drives the
// provider emulator the way the end-to-end tests do (docs/architecture.md, "Packages and layers").
export default [...baseConfig, ...unpublishedProgramConfig(['src/demo.ts'])];
