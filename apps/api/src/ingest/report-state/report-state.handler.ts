import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { ReportStateCommand } from './report-state.command';

/** docs/api.md 13.2: records a change of connection state in the instance's log (the same state as
 * the current one records nothing); an unknown or deleted instance is 0005 (404 on this host). */
@CommandHandler(ReportStateCommand)
export class ReportStateHandler implements ICommandHandler<ReportStateCommand, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
  ) {}

  async execute({ instanceId, state, time }: ReportStateCommand): Promise<void> {
    const since = new Date(time * 1000).toISOString();
    await this.runner.instances.handle(instanceId, {
      type: 'ReportInstanceState',
      data: { state, since, now: this.clock.now() },
    });
  }
}
