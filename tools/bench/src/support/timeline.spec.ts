import { timeline } from './timeline';

describe('timeline', () => {
  it('groups latencies and answer times by when their messages were sent, from the first send', () => {
    const latencies: Array<[number, number]> = [
      [1000, 10],
      [1200, 30],
      [1499, 20],
      [1500, 200],
      [2600, 5],
    ];
    const answers: Array<[number, number]> = [
      [1000, 4],
      [1200, 6],
      [1500, 90],
      [2600, 3],
    ];
    expect(timeline(latencies, answers, 500)).toEqual([
      { from: 0, received: 3, p50: 20, p99: 30, max: 30, answerP50: 4, answerMax: 6 },
      { from: 0.5, received: 1, p50: 200, p99: 200, max: 200, answerP50: 90, answerMax: 90 },
      { from: 1.5, received: 1, p50: 5, p99: 5, max: 5, answerP50: 3, answerMax: 3 },
    ]);
  });

  it('leaves out windows where nothing arrived, and says NaN for answers it has none of', () => {
    const windows = timeline(
      [[0, 12]],
      [
        [0, 1],
        [700, 2],
      ],
      500,
    );
    expect(windows).toEqual([{ from: 0, received: 1, p50: 12, p99: 12, max: 12, answerP50: 1, answerMax: 1 }]);
    expect(timeline([[50, 7]], [], 500)[0].answerP50).toBeNaN();
  });
});
