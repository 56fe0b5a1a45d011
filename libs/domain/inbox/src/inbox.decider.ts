import { assertNever, type Decider } from '@gw/domain-core';
import type { AckReceived, InboxEvent, MessageReceived } from './inbox.events';

/** Record a message as received; its personal fields come sealed (the domain never reads them). */
export type RecordMessage = { type: 'RecordMessage'; data: MessageReceived['data'] };
/** Record an ack as received; its `chatId` comes sealed. */
export type RecordAck = { type: 'RecordAck'; data: AckReceived['data'] };
/** What the inbox is asked to record. */
export type InboxCommand = RecordMessage | RecordAck;

/**
 * The inbox records what the gateway reports and refuses nothing: its stream is append-only and its
 * state decides nothing. Recording twice is kept out by the events' ids (`inboxIdentity`), not here.
 */
export const inboxDecider: Decider<InboxCommand, InboxEvent, null> = {
  initialState: () => null,
  evolve: (state) => state,
  decide(command) {
    switch (command.type) {
      case 'RecordMessage':
        return [{ type: 'MessageReceived', data: command.data }];
      case 'RecordAck':
        return [{ type: 'AckReceived', data: command.data }];
      default:
        return assertNever(command);
    }
  },
};
