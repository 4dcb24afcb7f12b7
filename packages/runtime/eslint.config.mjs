import baseConfig, { libraryConfig } from '../../eslint.config.mjs';

export default [...baseConfig, ...libraryConfig];
