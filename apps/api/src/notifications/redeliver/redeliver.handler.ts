import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { deliveryEnabled, instanceStatus } from '@gw/domain-instances';
import { MAX_REDELIVER_RANGE } from '@gw/domain-notifications';
import type { InstancesQuery } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { InstanceAuthenticator } from '../../webhooks/instance-authenticator';
import { InstanceNotifications, type NotificationRef } from '../instance-notifications';
import { RedeliverCommand, type RedeliverResult } from './redeliver.command';

/** docs/api.md 8.8: queues a range of notifications again, decided on the notifications stream the
 * notifier follows, which sends them like any pending one, to the URL registered now. */
@CommandHandler(RedeliverCommand)
export class RedeliverHandler implements ICommandHandler<RedeliverCommand, RedeliverResult> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readModels: ReadModelsService,
    private readonly clock: Clock,
    private readonly auth: InstanceAuthenticator,
    private readonly notifications: InstanceNotifications,
  ) {}

  async execute({ instanceId, token, from, to }: RedeliverCommand): Promise<RedeliverResult> {
    const instances: InstancesQuery = await this.readModels.current();
    const row = instances.findInstance(instanceId);
    this.auth.authenticate(instanceId, token, row?.tokenHash);
    if (!row) throw new Error('unreachable: authentication passed without an instance');
    const now = this.clock.now();
    const expired = instanceStatus(row.expiresAt, now) === 'expired';
    const deliveryOn = deliveryEnabled(row, now);
    // Redelivered by reference (docs/api.md section 11): the notifier reads a body from its
    // NotificationCreated when it sends it, so no body is read or copied here.
    const recorded = await this.recordedIn(instanceId, from, to);
    const { events } = await this.runner.notifications.handle(instanceId, {
      type: 'Redeliver',
      data: { instanceId, from, to, recorded, expired, deliveryOn, now },
    });
    return { queued: events.length };
  }

  private async recordedIn(instanceId: string, from: number, to: number | null): Promise<NotificationRef[]> {
    const notifications = await this.notifications.read(instanceId);
    const last = to ?? notifications.lastSequence;
    // A range over the limit is refused by the decider, so none is listed for it.
    return last - from + 1 > MAX_REDELIVER_RANGE ? [] : notifications.refs(from, last, MAX_REDELIVER_RANGE);
  }
}
