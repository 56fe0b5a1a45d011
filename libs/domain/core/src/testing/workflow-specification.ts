import type { Workflow } from '../decider';
import { fold } from '../decider';

/** given(inputs).when(input).then(outputs): a workflow's rule, read like a decider's. */
export function workflowSpec<Input, Output, State>(workflow: Workflow<Input, Output, State>) {
  return {
    given(history: Input[]) {
      return {
        when(input: Input) {
          return {
            then(expected: Output[]) {
              expect(workflow.decide(input, fold(workflow, history))).toEqual(expected);
            },
          };
        },
      };
    },
  };
}
