import type { Decider } from '../decider';
import { fold } from '../decider';

/**
 * given(events).when(command).then(events) / .thenRefuses(codes): reads like the rule it tests.
 */
export function deciderSpec<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return {
    given(history: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, fold(decider, history));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenRefuses(codes: string[]) {
              let error: unknown;
              try {
                run();
              } catch (e) {
                error = e;
              }
              expect(error).toBeDefined();
              const violations = (error as { violations?: { code: string }[] }).violations;
              expect(violations?.map((v) => v.code)).toEqual(codes);
            },
            thenThrows(errorClass: new (...args: never[]) => Error) {
              expect(run).toThrow(errorClass);
            },
          };
        },
      };
    },
  };
}
