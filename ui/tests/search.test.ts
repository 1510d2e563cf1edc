import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldText, foldedParts, matchesFolded } from '../src/search/fold';

describe('search folding', () => {
  it('folds case, diacritics and đ as the server index does', () => {
    assert.equal(foldText('  Tối nay   ĂN CƠM  '), 'toi nay an com');
    assert.equal(foldText('Đường'), 'duong');
    assert.ok(matchesFolded('Tối nay ăn cơm ở đâu?', foldText('an com')));
    assert.ok(!matchesFolded('Tối nay', foldText('')));
  });

  it('marks the runs of the original text that match, diacritics kept', () => {
    assert.deepEqual(foldedParts('Tối nay ăn cơm ở đâu?', 'an com'), [
      { text: 'Tối nay ', match: false },
      { text: 'ăn cơm', match: true },
      { text: ' ở đâu?', match: false },
    ]);
    assert.deepEqual(foldedParts('我们今天去吃饭吧', '吃饭'), [
      { text: '我们今天去', match: false },
      { text: '吃饭', match: true },
      { text: '吧', match: false },
    ]);
    assert.deepEqual(foldedParts('hello', 'zz'), [{ text: 'hello', match: false }]);
  });
});
