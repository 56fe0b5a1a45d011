import { deciderSpec } from '@gw/domain-core/testing';
import { inboxDecider } from './inbox.decider';

const message = { id: 'm1', fromMe: false, type: 'chat', time: 1_700_000_000, sealed: 'v1.x' };
const ack = { id: 'm1', status: 'read' as const, time: 1_700_000_001, sealed: 'v1.y' };
const receivedAt = '2026-01-01T00:00:00.000Z';
const spec = deciderSpec(inboxDecider);

describe('the inbox', () => {
  it('records a message as received, whatever it recorded before', () => {
    const received = { type: 'MessageReceived' as const, data: { instanceId: 'i1', message, receivedAt } };
    spec
      .given([received])
      .when({ type: 'RecordMessage', data: { instanceId: 'i1', message, receivedAt } })
      .then([received]);
  });

  it('records an ack as received', () => {
    spec
      .given([])
      .when({ type: 'RecordAck', data: { instanceId: 'i1', ack, receivedAt } })
      .then([{ type: 'AckReceived', data: { instanceId: 'i1', ack, receivedAt } }]);
  });
});
