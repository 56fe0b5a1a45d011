import { operation, route } from '../../http/operation';
import { ReportStateCommand } from './report-state.command';
import { StateDto } from './report-state.dto';
import { ReportStateHandler } from './report-state.handler';

/** docs/api.md 13.2: the gateway reports an instance's connection state; 202 once recorded. The
 * ingest host is internal, so it is not described in the OpenAPI documents. */
export const reportState = operation({
  handler: ReportStateHandler,
  routes: [
    route({
      name: 'reportState',
      host: 'internal',
      path: '/instances/:instanceid/state',
      methods: ['POST'],
      dto: StateDto,
      build: (s, path) => new ReportStateCommand(path['instanceid'], s.state, s.time),
      status: 202,
    }),
  ],
});
