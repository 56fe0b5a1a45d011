import { Inject, type DynamicModule } from '@nestjs/common';
import { ConfigModule, getConfigToken, registerAs } from '@nestjs/config';
import { CONFIG_SECTIONS, type AppConfig, type ConfigSectionName } from '@gw/config';

/**
 * The checked configuration as @nestjs/config sections, one provider per section, global to the
 * app. The environment is read and checked once, before the app starts, by `loadConfig` (which
 * names every bad variable at once); no .env file is read.
 */
export function configModule(config: AppConfig): Promise<DynamicModule> {
  return ConfigModule.forRoot({
    isGlobal: true,
    ignoreEnvFile: true,
    load: CONFIG_SECTIONS.map((name) => registerAs(name, () => config[name])),
  });
}

/** Injects one section of the configuration (`@InjectConfig('webhooks') webhooks: WebhooksConfig`):
 * a component is given only what it reads. */
export const InjectConfig = (section: ConfigSectionName): PropertyDecorator & ParameterDecorator =>
  Inject(getConfigToken(section));
