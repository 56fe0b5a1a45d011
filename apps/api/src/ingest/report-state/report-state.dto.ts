import { CONNECTION_STATES, type ConnectionState } from '@gw/domain-instances';
import { OneOf, UnixSeconds } from '../../http/param-rules';

/** docs/api.md 13.2: the connection state the gateway reports, and when it began. */
export class StateDto {
  @OneOf(CONNECTION_STATES) state!: ConnectionState;
  @UnixSeconds() time!: number;
}
