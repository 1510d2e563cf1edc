import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { debounce, throttle } from '../src/chat/timing';
import { MAX_RENDERED, RENDER_BUFFER, anchorAround, shiftDown, shiftUp, windowRange } from '../src/chat/window';

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

describe('message list window', () => {
  it('renders everything up to 1000 messages and the newest 1000 beyond', () => {
    assert.deepEqual(windowRange(keys(30), { kind: 'bottom' }), { start: 0, end: 30 });
    assert.deepEqual(windowRange(keys(2500), { kind: 'bottom' }), { start: 1500, end: 2500 });
    assert.equal(MAX_RENDERED, 1000);
    assert.equal(RENDER_BUFFER, 200);
  });

  it('moves up and down by 200 and follows the end once it is reached', () => {
    const all = keys(2500);
    const bottom = windowRange(all, { kind: 'bottom' });
    const up = shiftUp(all, bottom)!;
    const range = windowRange(all, up);
    assert.deepEqual(range, { start: 1300, end: 2300 });
    assert.equal(range.end - range.start, MAX_RENDERED);
    assert.deepEqual(shiftDown(all, range), { kind: 'bottom' });
    const top = windowRange(all, { kind: 'start', key: null });
    assert.deepEqual(top, { start: 0, end: 1000 });
    assert.equal(shiftUp(all, top), null);
    assert.deepEqual(windowRange(all, shiftDown(all, top)!), { start: 200, end: 1200 });
  });

  it('keeps its first message when older pages are prepended', () => {
    const before = keys(1500);
    const anchor = { kind: 'start' as const, key: 'k300' };
    const after = [...Array.from({ length: 20 }, (_, i) => `old${i}`), ...before];
    assert.deepEqual(windowRange(after, anchor), { start: 320, end: 1320 });
  });

  it('opens a window around a message to jump to', () => {
    const all = keys(3000);
    const range = windowRange(all, anchorAround(all, 500));
    assert.ok(range.start <= 500 && 500 < range.end);
    assert.equal(range.start, 300);
    assert.deepEqual(anchorAround(all, 2950), { kind: 'bottom' });
  });

  it('falls back to the newest messages when its first message is gone', () => {
    assert.deepEqual(windowRange(keys(1200), { kind: 'start', key: 'missing' }), { start: 200, end: 1200 });
  });
});

describe('rate limits', () => {
  it('throttles scroll-to-bottom to one run per 150 ms, the last call running at the end', () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      let runs = 0;
      const limited = throttle(() => runs++, 150, () => Date.now());
      limited();
      limited();
      limited();
      assert.equal(runs, 1);
      mock.timers.tick(150);
      assert.equal(runs, 2);
      mock.timers.tick(1000);
      assert.equal(runs, 2);
    } finally {
      mock.timers.reset();
    }
  });

  it('debounces history-page requests by 150 ms', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let runs = 0;
      const limited = debounce(() => runs++, 150);
      limited();
      mock.timers.tick(100);
      limited();
      mock.timers.tick(100);
      assert.equal(runs, 0);
      mock.timers.tick(50);
      assert.equal(runs, 1);
    } finally {
      mock.timers.reset();
    }
  });
});
