import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api/types';
import { applyChanges } from '../src/chat/changes';
import { mergeTimeline } from '../src/chat/timeline';
import { messageChangesAtom, readMarksAtom } from '../src/state/chat';
import { appStore } from '../src/state/store';
import { CMD, handlePush } from '../src/ws/handlers';

const ME = '1000000000000000001';
const PEER = '1000000000000000002';

function msg(id: string, from = PEER): Message {
  return {
    id,
    uuid: `u-${id}`,
    chatType: 'Friend',
    from,
    to: from === ME ? PEER : ME,
    groupId: '',
    msgType: 'Text',
    content: `text ${id}`,
    serverReceiveTime: Number(id),
    createTime: Number(id),
    msgStatus: 'Read',
  };
}

const shown = () => applyChanges([msg('101'), msg('102', ME), msg('103'), msg('104')], appStore.get(messageChangesAtom)[PEER]);

describe('pushes 34, 16 and 30 change the open chat in place', () => {
  it('applies an edit by the peer (34) to the peer’s chat', () => {
    handlePush(
      {
        cmd: CMD.edited,
        data: { id: '101', chatType: 'Friend', from: PEER, to: ME, content: 'edited', editTime: 500, operationType: 'edit' },
      },
      ME,
    );
    const [first] = shown();
    assert.deepEqual([first.content, first.edited], ['edited', true]);
  });

  it('applies my own recall pushed to my other device (16 Recall)', () => {
    handlePush(
      {
        cmd: CMD.operation,
        data: { messageIds: ['102'], chatType: 'Friend', from: ME, to: PEER, operationType: 'Recall', operatorId: ME, time: 600 },
      },
      ME,
    );
    assert.equal(shown()[1].recalled, true);
  });

  it('removes a batch of messages deleted for everyone (16 Delete)', () => {
    handlePush(
      {
        cmd: CMD.operation,
        data: { messageIds: ['103', '104'], chatType: 'Friend', from: PEER, to: ME, operationType: 'Delete', scope: 'Everyone', time: 700 },
      },
      ME,
    );
    assert.deepEqual(
      shown().map((m) => m.id),
      ['101', '102'],
    );
  });

  it('clears the chat up to the pushed time (30)', () => {
    handlePush({ cmd: CMD.friendCleared, data: { chatType: 'Friend', friendMemberId: PEER, upTo: 101 } }, ME);
    assert.deepEqual(
      shown().map((m) => m.id),
      ['102'],
    );
  });
});

describe('push 28 in a friend chat', () => {
  const mine = (id: string): Message => ({ ...msg(id, ME), msgStatus: 'Unread' });
  const statuses = () =>
    mergeTimeline([mine('201'), mine('202'), mine('203')], [], ME, appStore.get(readMarksAtom)[PEER] ?? {}).map((m) => m.msgStatus);

  it('marks just the listed messages Read when it has no messageId (the peer deleted them unread)', () => {
    handlePush({ cmd: CMD.readPushed, data: { chatType: 'Friend', from: PEER, to: ME, messageId: '', messageIds: ['202'] } }, ME);
    assert.deepEqual(statuses(), ['Unread', 'Read', 'Unread']);
  });

  it('marks every message up to its messageId Read', () => {
    handlePush({ cmd: CMD.readPushed, data: { chatType: 'Friend', from: PEER, to: ME, messageId: '201', messageIds: ['201'] } }, ME);
    assert.deepEqual(statuses(), ['Read', 'Read', 'Unread']);
  });
});
