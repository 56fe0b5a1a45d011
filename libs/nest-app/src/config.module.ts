import { Inject, Module, type DynamicModule } from '@nestjs/common';
import { CONFIG_SECTIONS, type AppConfig, type ConfigSectionName } from '@gw/config';

/** The injection token of one section of the configuration. */
const configToken = (section: ConfigSectionName): string => `config.${section}`;

/** Holds the configuration's providers; `configModule` gives it them. */
@Module({})
class ConfigSectionsModule {}

/**
 * The checked configuration, one provider per section, global to the app. The environment is read
 * and checked once, before the app starts, by `loadConfig` (which names every bad variable at once);
 * no .env file is read. (Plain value providers: @nestjs/config did the same here and took a tenth of
 * the API's start-up loading lodash and its own loaders, none of which this needs.)
 */
export function configModule(config: AppConfig): DynamicModule {
  const providers = CONFIG_SECTIONS.map((name) => ({ provide: configToken(name), useValue: config[name] }));
  return {
    module: ConfigSectionsModule,
    global: true,
    providers,
    exports: providers.map((provider) => provider.provide),
  };
}

/** Injects one section of the configuration (`@InjectConfig('webhooks') webhooks: WebhooksConfig`):
 * a component is given only what it reads. */
export const InjectConfig = (section: ConfigSectionName): PropertyDecorator & ParameterDecorator =>
  Inject(configToken(section));
