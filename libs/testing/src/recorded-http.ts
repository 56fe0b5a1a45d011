import { get, postForm, postJson, request, type Answer } from './http';

/**
 * The http helpers, wrapped so that every answer a spec received is kept; a spec can then check
 * properties that must hold for all of them (no 5xx, no HTML, no empty body).
 */
export function recordingHttp() {
  const answers: Array<{ what: string; answer: Answer }> = [];
  const record =
    <Args extends unknown[]>(name: string, send: (...args: Args) => Promise<Answer>) =>
    async (...args: Args): Promise<Answer> => {
      const answer = await send(...args);
      answers.push({ what: `${name} ${String(args[0])}${typeof args[1] === 'string' ? args[1] : ''}`, answer });
      return answer;
    };
  return {
    answers,
    get: record('GET', get),
    postJson: record('POST json', postJson),
    postForm: record('POST form', postForm),
    request: record('request', request),
  };
}

/** Answers that break docs/api.md section 2's "never" list: a 5xx, HTML, an empty body, no JSON object. */
export function malformedAnswers(answers: ReadonlyArray<{ what: string; answer: Answer }>): string[] {
  return answers
    .filter(
      ({ answer }) =>
        answer.status >= 500 ||
        answer.text.trim() === '' ||
        /<html|<!doctype/i.test(answer.text) ||
        answer.contentType !== 'application/json; charset=utf-8' ||
        typeof answer.json !== 'object' ||
        answer.json === null ||
        typeof answer.json.success !== 'boolean' ||
        /\bat .+\(.+:\d+:\d+\)/.test(answer.text),
    )
    .map(({ what, answer }) => `${what} -> ${answer.status} ${answer.contentType} ${answer.text.slice(0, 200)}`);
}
