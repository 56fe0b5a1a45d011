import { Codes, type Violation } from '@gw/contract';
import { refuse } from '@gw/domain-core';
import type { ReportInstanceState, SetInstanceLabel } from './instance.commands';
import type { InstanceEvent } from './instance.events';
import type { InstanceState } from './instance.state';

const noSuchInstance: Violation = {
  code: Codes.NoSuchInstance,
  field: 'instanceid',
  message: 'no such instance in this account',
};

/** Sets or (empty) removes the label (docs/api.md 13.1); the same label again records nothing. Another
 * account's or a deleted instance is reported like a missing one (0005). */
export function decideSetLabel({ data }: SetInstanceLabel, state: InstanceState): InstanceEvent[] {
  if (state.status !== 'created' || state.accountId !== data.accountId) return refuse(noSuchInstance);
  const label = data.label === '' ? null : data.label;
  if (label === state.label) return [];
  return [{ type: 'InstanceLabelSet', data: { instanceId: state.instanceId, label, setAt: data.now } }];
}

/** Records the connection state the gateway reports (13.2); the current state again records nothing.
 * An expired instance's state is recorded (as its traffic is); a deleted one is no instance (0005). */
export function decideReportState({ data }: ReportInstanceState, state: InstanceState): InstanceEvent[] {
  if (state.status !== 'created') return refuse(noSuchInstance);
  if (state.connectionState === data.state) return [];
  return [
    {
      type: 'InstanceStateReported',
      data: { instanceId: state.instanceId, state: data.state, since: data.since, reportedAt: data.now },
    },
  ];
}
