import { ConfigError, loadConfig, type AppConfig } from './config';

/** The configuration, or exit code 1 with every bad variable named on stderr. */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
