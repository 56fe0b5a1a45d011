import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { hashSecret, newSecret } from '@gw/application';
import { normalizeEmail } from '@gw/domain-accounts';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { AccountAuthenticator } from '../account-authenticator';
import { ResetApiKeyCommand, type ResetApiKeyResult } from './reset-api-key.command';

/** docs/api.md 8.3: a new API key; the old one is refused from the answer on. */
@CommandHandler(ResetApiKeyCommand)
export class ResetApiKeyHandler implements ICommandHandler<ResetApiKeyCommand, ResetApiKeyResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
  ) {}

  async execute({ email, apiKey }: ResetApiKeyCommand): Promise<ResetApiKeyResult> {
    // Shown once, in this answer; only its hash is recorded.
    const newKey = newSecret('gwk');
    // The old key is checked on the state the reset is decided on: of two resets with the same key
    // that race, the one that loses the append reloads, finds the key replaced and is refused (0003).
    await this.runner.accounts.handle(this.accounts.accountId(email), (current, scope) => {
      this.accounts.authenticateCommand(email, apiKey, current, scope);
      return { type: 'ResetApiKey', data: { apiKeyHash: hashSecret(newKey), now: this.clock.now() } };
    });
    // The address as the request gave it, normalized: the store holds it sealed only.
    return { email: normalizeEmail(email), apikey: newKey };
  }
}
