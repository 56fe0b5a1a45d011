import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import type { NotifierMetrics } from '../metrics/metrics';
import type { Clock } from './clock';
import type { FairScheduler } from './fair-scheduler';
import type { NoticeSchedule } from './notice-schedule';
import type { NotificationBatcher } from './notification-batcher';
import type { NotificationSender } from './notification-sender';
import type { NotificationWriter } from './notification-writer';
import type { NotifierModel } from './notifier-model';

/** The components the processor routes the workflow's outputs to. */
export interface ProcessorParts {
  store: EventStore;
  model: NotifierModel;
  writer: NotificationWriter;
  batcher: NotificationBatcher;
  scheduler: FairScheduler;
  sender: NotificationSender;
  notices: NoticeSchedule;
  metrics: NotifierMetrics;
  logger: Logger;
  clock: Clock;
}

/** What the processor needs of the configuration, and no more. */
export interface ProcessorSettings {
  /** RETRY_SCHEDULE, in seconds, after the immediate first attempt. */
  retryScheduleSeconds: readonly number[];
  /** Internal retries of the 410 switch-off when the instance changed underneath it. */
  conflictRetries: number;
  /** EXPIRY_NOTICE_HOURS. */
  expiryNoticeHours: readonly number[];
  /** WEBHOOK_DISABLE_AFTER_HOURS: failures for this long, with no success, switch delivery off (0: never). */
  disableAfterHours: number;
  /** How often to look for instance notices due; at most a second, so that one is made within 5 s. */
  noticeCheckMs: number;
  /** A number in [0, 1) for the retry jitter (Math.random; fixed in unit specs). */
  random(): number;
}
