import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, MessageStatus } from '../src/api/types';
import { compareIds } from '../src/chat/ids';
import { upsertLive } from '../src/chat/liveMessages';
import { firstUnread, historyBehind, incomingReadState, isAfter, lastOnServer, laterPoint, mergeTimeline } from '../src/chat/timeline';
import { liveDroppedAtom, liveMessagesAtom } from '../src/state/chat';
import { appStore } from '../src/state/store';
import { PROCESSED_KEEP, PROCESSED_MAX, ProcessedIds } from '../src/ws/processedIds';

const ME = '100';
const PEER = '200';

function msg(id: string, uuid: string, from: string, status: MessageStatus, time: number): Message {
  return {
    id,
    uuid,
    chatType: 'Friend',
    from,
    to: from === ME ? PEER : ME,
    groupId: '',
    msgType: 'Text',
    content: uuid,
    serverReceiveTime: id ? time : 0,
    createTime: time,
    msgStatus: status,
  };
}

describe('chat timeline', () => {
  it('keeps a bounded live list and notes the newest message it dropped', () => {
    for (const n of [1, 2, 3]) upsertLive('bounded', msg(`${n}`, `u${n}`, PEER, 'Unread', n * 10), 3);
    upsertLive('bounded', msg('2', 'u2', PEER, 'Read', 20), 3);
    assert.equal(appStore.get(liveDroppedAtom).bounded, undefined, 'nothing dropped yet; an update is no new message');
    for (const n of [4, 5]) upsertLive('bounded', msg(`${n}`, `u${n}`, PEER, 'Unread', n * 10), 3);
    assert.deepEqual(appStore.get(liveMessagesAtom).bounded.map((m) => m.id), ['3', '4', '5']);
    assert.equal(appStore.get(liveDroppedAtom).bounded, 20);
  });

  it('asks for the history again while it ends before a message the live list dropped', () => {
    const history = [msg('1', 'h1', PEER, 'Read', 1), msg('2', 'h2', PEER, 'Read', 2)];
    assert.equal(historyBehind(history, 0), false, 'nothing dropped');
    assert.equal(historyBehind(history, 2), false, 'the history holds what was dropped');
    assert.equal(historyBehind(history, 5), true);
    assert.equal(historyBehind([], 5), true);
    assert.equal(historyBehind([...history, msg('7', 'h7', PEER, 'Read', 7)], 5), false, 'the history reloaded holds it');
  });

  it('puts the unread separator above the oldest of the unread messages from others', () => {
    const timeline = [
      msg('1', 'a', PEER, 'Read', 1),
      msg('2', 'b', PEER, 'Unread', 2),
      msg('3', 'c', ME, 'Unread', 3),
      { ...msg('4', 'd', PEER, 'Read', 4), msgType: 'Event' as const },
      msg('5', 'e', PEER, 'Unread', 5),
    ];
    assert.equal(firstUnread(timeline, ME, 2)?.uuid, 'b');
    assert.equal(firstUnread(timeline, ME, 1)?.uuid, 'e');
    assert.equal(firstUnread(timeline, ME, 9)?.uuid, 'a');
    assert.equal(firstUnread(timeline, ME, 0), undefined);
  });

  it('merges history with live messages by uuid, keeping the most advanced state', () => {
    const history = [msg('1001', 'a', PEER, 'Read', 10), msg('1002', 'b', ME, 'Unread', 20)];
    const live = [msg('', 'b', ME, 'sent', 19), msg('', 'c', ME, 'sending', 30)];
    const merged = mergeTimeline(history, live, ME, {});
    assert.deepEqual(
      merged.map((m) => [m.uuid, m.msgStatus]),
      [
        ['a', 'Read'],
        ['b', 'Unread'],
        ['c', 'sending'],
      ],
    );
    assert.equal(merged[1].id, '1002');
  });

  it('marks own messages Read up to the id the peer acknowledged', () => {
    const history = [
      msg('1001', 'a', ME, 'Unread', 10),
      msg('1002', 'b', ME, 'Unread', 20),
      msg('1003', 'c', ME, 'Unread', 30),
    ];
    const merged = mergeTimeline(history, [], ME, { peerReadUpTo: { id: '1002' } });
    assert.deepEqual(
      merged.map((m) => m.msgStatus),
      ['Read', 'Read', 'Unread'],
    );
  });

  it('marks own messages the peer settled out of order Read, and only those', () => {
    const history = [msg('1001', 'a', ME, 'Unread', 10), msg('1002', 'b', ME, 'Unread', 20), msg('1003', 'c', PEER, 'Unread', 30)];
    const merged = mergeTimeline(history, [], ME, { peerReadIds: ['1002', '1003'] });
    assert.deepEqual(
      merged.map((m) => m.msgStatus),
      ['Unread', 'Read', 'Unread'],
    );
  });

  it('marks incoming messages Read up to my own acknowledgement and reports what is left', () => {
    const history = [msg('1001', 'a', PEER, 'Unread', 10), msg('1002', 'b', PEER, 'Unread', 20)];
    assert.deepEqual(incomingReadState(mergeTimeline(history, [], ME, {}), ME), { newest: { id: '1002', seq: undefined }, anyUnread: true });
    const read = mergeTimeline(history, [], ME, { myReadUpTo: { id: '1002' } });
    assert.deepEqual(incomingReadState(read, ME), { newest: { id: '1002', seq: undefined }, anyUnread: false });
  });

  it('orders read points by the chat, not by ids drawn at once', () => {
    // Two sends at once: 1002 was drawn second but placed first.
    const history = [
      { ...msg('1002', 'b', PEER, 'Unread', 10), seq: 7 },
      { ...msg('1001', 'a', PEER, 'Unread', 10), seq: 8 },
      { ...msg('1000', 'c', ME, 'sent', 10), seq: 9 },
    ];
    const timeline = mergeTimeline(history, [], ME, {});
    assert.deepEqual(incomingReadState(timeline, ME).newest, { id: '1001', seq: 8 }, 'the ack reads up to the last, 1001');
    assert.deepEqual(lastOnServer(timeline), { id: '1000', seq: 9 });

    const readFirst = mergeTimeline(history, [], ME, { myReadUpTo: { id: '1002', seq: 7 } });
    assert.deepEqual(
      readFirst.filter((m) => m.from === PEER).map((m) => `${m.id}:${m.msgStatus}`),
      ['1002:Read', '1001:Unread'],
      'an ack of 1002 leaves 1001, placed after it',
    );
    assert.equal(incomingReadState(readFirst, ME).anyUnread, true);
    assert.ok(isAfter({ id: '1001', seq: 8 }, { id: '1002', seq: 7 }), 'so it is acknowledged next');
    assert.ok(isAfter({ id: '1002' }, { id: '1001', seq: 8 }), 'ids decide where a seq is missing');
    assert.deepEqual(laterPoint({ id: '1001', seq: 8 }, { id: '1002', seq: 7 }), { id: '1001', seq: 8 });
    assert.deepEqual(laterPoint(undefined, { id: '1002', seq: 7 }), { id: '1002', seq: 7 });
  });

  it('compares snowflake ids by length, then text', () => {
    assert.ok(compareIds('999', '1000') < 0);
    assert.ok(compareIds('1866000000000000002', '1866000000000000001') > 0);
    assert.equal(compareIds('42', '42'), 0);
  });
});

describe('processed-id cache', () => {
  it('reports repeats and trims from over 2000 to the newest 1000', () => {
    const cache = new ProcessedIds();
    assert.equal(cache.check('x'), false);
    assert.equal(cache.check('x'), true);
    for (let i = 0; i < PROCESSED_MAX; i++) cache.check(`id-${i}`);
    assert.equal(cache.size, PROCESSED_KEEP);
    assert.equal(cache.check('x'), false, 'the oldest ids were dropped');
    assert.equal(cache.check(`id-${PROCESSED_MAX - 1}`), true, 'the newest ids were kept');
  });
});
