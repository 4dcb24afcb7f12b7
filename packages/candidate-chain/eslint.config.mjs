import baseConfig, { libraryConfig, pureConfig } from '../../eslint.config.mjs';

export default [...baseConfig, ...libraryConfig, ...pureConfig];
