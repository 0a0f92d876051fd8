// The regression guard and the one table `make bench` ends with (bench/figures.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { committedRatios, figure, figuresTable, regressions, withFiguresTable } from '../figures.mjs';

const hop = (p50, limit) =>
  figure('auth-roundtrip', 'hop p50', p50, 'ms', {
    goal: { max: 5 },
    ratio: { value: p50 / limit, better: 'lower' },
  });
const sender = (rate, floor) =>
  figure('email-delivery', 'sender', rate, 'mails/s', { ratio: { value: rate / floor, better: 'higher' } });

test('a figure says whether its goal is met, and keeps its ratio', () => {
  assert.deepEqual(hop(4, 1), {
    bench: 'auth-roundtrip',
    figure: 'hop p50',
    value: 4,
    unit: 'ms',
    goal: '≤ 5 ms',
    met: true,
    ratio: 4,
    better: 'lower',
  });
  assert.equal(hop(6, 1).met, false);
  assert.equal(figure('x', 'y', 0.9, '×', { goal: { min: 0.8 } }).met, true);
  assert.equal(figure('x', 'shown only', 3, 'ms').met, null);
});

test('the ratios committed in the README table are read back as written', () => {
  const readme = withFiguresTable('# Benchmarks\n', [hop(7, 0.2), sender(1200, 3000)], 'Recorded.');
  const ratios = committedRatios(readme);
  assert.equal(ratios.get('auth-roundtrip · hop p50'), 35);
  assert.equal(ratios.get('email-delivery · sender'), 0.4);
});

test("the guard fails a ratio more than 25% worse in the figure's own direction, and only then", () => {
  const committed = committedRatios(withFiguresTable('', [hop(7, 0.2), sender(1200, 3000)], 'r'));
  // The hop's fourfold slide of 2026-11-28 (34.6× -> 143×) is caught; 20% worse is within the noise.
  assert.deepEqual(
    regressions([hop(28.6, 0.2)], committed).map((r) => r.key),
    ['auth-roundtrip · hop p50'],
  );
  assert.deepEqual(regressions([hop(8.4, 0.2)], committed), []);
  // Better is never a regression, whichever way "better" points.
  assert.deepEqual(regressions([hop(1, 0.2), sender(2900, 3000)], committed), []);
  // A sender falling from 0.4× to 0.28× of its floor is.
  assert.equal(regressions([sender(840, 3000)], committed).length, 1);
  // A figure never recorded is new, not a regression.
  assert.deepEqual(
    regressions([figure('new', 'x', 1, 'ms', { ratio: { value: 99, better: 'lower' } })], committed),
    [],
  );
});

test('recording one bench keeps the rows of the others', () => {
  const first = withFiguresTable('# B\n', [hop(7, 0.2), sender(1200, 3000)], 'one');
  const second = withFiguresTable(first, [hop(3, 0.2)], 'two');
  const ratios = committedRatios(second);
  assert.equal(ratios.get('auth-roundtrip · hop p50'), 15);
  assert.equal(ratios.get('email-delivery · sender'), 0.4);
  assert.equal(second.match(/figures:start/g).length, 1);
  assert.match(second, /^two$/m);
});

test('the table marks each goal met or not met', () => {
  const table = figuresTable([hop(4, 1), hop(9, 1)]);
  assert.match(table, /\| ≤ 5 ms \| met \|/);
  assert.match(table, /\| ≤ 5 ms \| not met \|/);
});
