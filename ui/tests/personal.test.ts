import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en } from '../src/i18n/en';
import { vi_VN } from '../src/i18n/vi_VN';
import { zh_CN } from '../src/i18n/zh_CN';
import {
  MAX_FORWARD_RECORDS,
  MAX_RECIPIENTS,
  favouriteActions,
  filterFriends,
  forwardRefusal,
  massRefusal,
  recipientsLabel,
  selectAll,
  toggle,
} from '../src/personal/logic';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);

describe('favourites', () => {
  it('offers copy and edit for text, download for media, add-as-sticker for pictures only', () => {
    assert.deepEqual(favouriteActions({ msgType: 'Text' }), ['forward', 'select', 'copy', 'edit', 'delete']);
    assert.deepEqual(favouriteActions({ msgType: 'Picture' }), ['forward', 'select', 'download', 'addSticker', 'delete']);
    assert.deepEqual(favouriteActions({ msgType: 'File' }), ['forward', 'select', 'download', 'delete']);
    assert.deepEqual(favouriteActions({ msgType: 'ShareContact' }), ['forward', 'select', 'delete']);
  });

  it('selects at most 10 records for a forward, in the order picked', () => {
    let selected: string[] = [];
    for (const id of ids(MAX_FORWARD_RECORDS)) selected = toggle(selected, id, MAX_FORWARD_RECORDS, 'fav.tooMany').selected;
    assert.equal(selected.length, 10);
    const over = toggle(selected, 'm99', MAX_FORWARD_RECORDS, 'fav.tooMany');
    assert.equal(over.refused, 'fav.tooMany');
    assert.deepEqual(over.selected, selected);
    const less = toggle(selected, 'm3', MAX_FORWARD_RECORDS, 'fav.tooMany');
    assert.equal(less.refused, undefined);
    assert.deepEqual(less.selected, selected.filter((id) => id !== 'm3'));
  });

  it('says why a forward cannot go: no records, too many, nobody to send to', () => {
    assert.equal(forwardRefusal([], ['b']), 'fav.selectFirst');
    assert.equal(forwardRefusal(ids(11), ['b']), 'fav.tooMany');
    assert.equal(forwardRefusal(ids(1), []), 'fav.pickFriend');
    assert.equal(forwardRefusal(ids(10), ['b']), null);
    assert.equal(en['fav.tooMany'], 'A maximum of 10 records can be forwarded at once!');
  });
});

describe('mass send', () => {
  const friends = [
    { id: '1', name: 'Bob', remark: '', code: 'bob001' },
    { id: '2', name: 'Carol', remark: 'Aunt C', code: 'carol1' },
    { id: '3', name: 'Dave', remark: '', code: 'dave99' },
  ];

  it('finds friends by remark, name or account, case-insensitively', () => {
    assert.deepEqual(filterFriends(friends, 'aunt').map((f) => f.id), ['2']);
    assert.deepEqual(filterFriends(friends, ' BOB ').map((f) => f.id), ['1']);
    assert.deepEqual(filterFriends(friends, '9').map((f) => f.id), ['3']);
    assert.equal(filterFriends(friends, '').length, 3);
  });

  it('selects all shown friends up to 100 and says when some did not fit', () => {
    assert.deepEqual(selectAll(['2'], ['1', '2', '3'], MAX_RECIPIENTS), { selected: ['2', '1', '3'], capped: false });
    const full = selectAll(ids(99), ['a', 'b'], MAX_RECIPIENTS);
    assert.equal(full.selected.length, 100);
    assert.equal(full.capped, true);
  });

  it('needs 1 to 100 recipients and a text or an attachment', () => {
    assert.equal(massRefusal([], 'hi', false), 'mass.pickRecipients');
    assert.equal(massRefusal(ids(101), 'hi', false), 'mass.tooMany');
    assert.equal(massRefusal(['1'], '  ', false), 'mass.emptyContent');
    assert.equal(massRefusal(['1'], '', true), null);
    assert.equal(massRefusal(ids(100), 'hi', false), null);
  });

  it('names the first recipients and counts the rest', () => {
    const name = (id: string) => ({ '1': 'Bob', '2': 'Carol', '3': 'Dave', '4': 'Eve' })[id] ?? id;
    assert.equal(recipientsLabel(['1', '2'], name), 'Bob, Carol');
    assert.equal(recipientsLabel(['1', '2', '3', '4', '5'], name), 'Bob, Carol, Dave +2');
  });
});

describe('personal texts', () => {
  it('are translated in every language', () => {
    for (const key of Object.keys(en).filter((k) => /^(fav|mass|sticker)\./.test(k)) as (keyof typeof en)[]) {
      assert.ok(zh_CN[key] && zh_CN[key] !== en[key], `zh_CN ${key}`);
      assert.ok(vi_VN[key] && vi_VN[key] !== en[key], `vi_VN ${key}`);
    }
  });
});
