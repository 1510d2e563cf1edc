import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dropAnswer, foldPiece } from '../src/assistant/live';
import { assistantEn, assistantVi, assistantZh } from '../src/i18n/assistant';
import { guard, parseHash } from '../src/routing/guard';

describe('the chat assistant page', () => {
  it('is the app route #/chatGpt, rendered on the member app path', () => {
    const route = parseHash('#/chatGpt');
    assert.equal(route.name, 'chatGpt');
    assert.deepEqual(guard({ route, pathname: '/1/42/', memberId: '42' }), { kind: 'render' });
    assert.deepEqual(guard({ route, pathname: '/', memberId: null }), { kind: 'redirect', hash: '#/landing' });
  });

  it('builds an answer from its pieces in order, once each, and drops it when the log holds it', () => {
    let all = foldPiece({}, 'q1', 1, 'Hel');
    all = foldPiece(all, 'q1', 2, 'lo');
    all = foldPiece(all, 'q1', 2, 'lo');
    all = foldPiece(all, 'q2', 1, 'other');
    assert.equal(all.q1.text, 'Hello');
    assert.equal(all.q2.text, 'other');
    all = dropAnswer(all, 'q1');
    assert.deepEqual(Object.keys(all), ['q2']);
    assert.equal(dropAnswer(all, 'nope'), all);
  });

  it('has every text in the three languages', () => {
    for (const table of [assistantZh, assistantVi]) {
      assert.deepEqual(Object.keys(table).sort(), Object.keys(assistantEn).sort());
      for (const [key, text] of Object.entries(table)) assert.notEqual(text, assistantEn[key as keyof typeof assistantEn], key);
    }
  });
});
