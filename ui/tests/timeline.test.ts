import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, MessageStatus } from '../src/api/types';
import { compareIds } from '../src/chat/ids';
import { firstUnread, incomingReadState, mergeTimeline } from '../src/chat/timeline';
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
    const merged = mergeTimeline(history, [], ME, { peerReadUpTo: '1002' });
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
    assert.deepEqual(incomingReadState(mergeTimeline(history, [], ME, {}), ME), { newestId: '1002', anyUnread: true });
    const read = mergeTimeline(history, [], ME, { myReadUpTo: '1002' });
    assert.deepEqual(incomingReadState(read, ME), { newestId: '1002', anyUnread: false });
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
