import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, Session } from '../src/api/types';
import { applyMessage, markSessionRead, sortSessions, upsertSession } from '../src/chat/sessions';
import { session } from './fixtures';

const ME = '1000000000000000001';

function message(from: string, to: string, id: string, time: number, content = 'hi'): Message {
  return {
    id,
    uuid: `uuid-${id}`,
    chatType: 'Friend',
    from,
    to,
    groupId: '',
    msgType: 'Text',
    content,
    serverReceiveTime: time,
    createTime: time,
    msgStatus: 'Unread',
  };
}

const ids = (list: Session[]) => list.map((item) => item.id);

describe('session list reducer', () => {
  const list = sortSessions([
    session('2', { lastMessageTime: 300 }),
    session('3', { lastMessageTime: 200 }),
    session('4', { lastMessageTime: 100, topMessage: 'Y' }),
  ]);

  it('sorts pinned first, then newest first', () => {
    assert.deepEqual(ids(list), ['4', '2', '3']);
  });

  it('raises the unread count, updates the preview and moves the chat up on a new message', () => {
    const next = applyMessage(list, message('3', ME, '501', 400, 'hello there'), { me: ME, openPeerId: null });
    assert.deepEqual(ids(next), ['4', '3', '2']);
    const updated = next.find((item) => item.id === '3')!;
    assert.equal(updated.unreadCount, 1);
    assert.equal(updated.lastMessageContent, 'hello there');
    assert.equal(updated.lastMessageTime, 400);
    assert.equal(updated.lastMessageId, '501');
  });

  it('keeps the pinned chat above a newer unpinned one', () => {
    const next = applyMessage(list, message('2', ME, '502', 999), { me: ME, openPeerId: null });
    assert.deepEqual(ids(next), ['4', '2', '3']);
  });

  it('handles the same message once', () => {
    const once = applyMessage(list, message('3', ME, '503', 400), { me: ME, openPeerId: null });
    const twice = applyMessage(once, message('3', ME, '503', 400), { me: ME, openPeerId: null });
    assert.equal(twice.find((item) => item.id === '3')!.unreadCount, 1);
  });

  it('does not raise the count for the open chat nor for own messages', () => {
    const open = applyMessage(list, message('3', ME, '504', 400), { me: ME, openPeerId: '3' });
    assert.equal(open.find((item) => item.id === '3')!.unreadCount, 0);
    const own = applyMessage(list, message(ME, '3', '505', 400), { me: ME, openPeerId: null });
    assert.equal(own.find((item) => item.id === '3')!.unreadCount, 0);
    assert.deepEqual(ids(own), ['4', '3', '2']);
  });

  it('adds a chat it did not hold', () => {
    const next = applyMessage(list, message('9', ME, '506', 500), { me: ME, openPeerId: null });
    assert.deepEqual(ids(next), ['4', '9', '2', '3']);
    assert.equal(next.find((item) => item.id === '9')!.unreadCount, 1);
  });

  it('clears the count when read', () => {
    const unread = applyMessage(list, message('3', ME, '507', 400), { me: ME, openPeerId: null });
    const read = markSessionRead(unread, '3');
    assert.equal(read.find((item) => item.id === '3')!.unreadCount, 0);
    assert.equal(markSessionRead(read, '3'), read);
  });

  it('replaces a pushed session item and re-sorts', () => {
    const next = upsertSession(list, session('3', { lastMessageTime: 100, topMessage: 'Y', unreadCount: 2 }));
    assert.deepEqual(ids(next), ['3', '4', '2']);
    assert.equal(next[0].unreadCount, 2);
  });
});

describe('session push merge', () => {
  it('keeps the name and avatar the list had when a pushed item leaves them empty', () => {
    const list = [session('7', { name: 'Alice', headUrl: '/a.png', unreadCount: 3, lastMessageTime: 5 })];
    const next = upsertSession(list, session('7', { name: '', headUrl: '', unreadCount: 0, lastMessageTime: 5 }));
    assert.equal(next[0].name, 'Alice');
    assert.equal(next[0].headUrl, '/a.png');
    assert.equal(next[0].unreadCount, 0);
  });
});
