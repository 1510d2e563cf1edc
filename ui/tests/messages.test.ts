import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Friend, Message, Session } from '../src/api/types';
import {
  applyChanges,
  expandForwardBatches,
  noChanges,
  withCleared,
  withEdit,
  withRecall,
  withRemoved,
} from '../src/chat/changes';
import { parseCard } from '../src/chat/contactCard';
import { FORWARD_MAX, canForward, forwardIdOk, forwardRefusal, inChatOrder, toggleSelection } from '../src/chat/forward';
import { RECALL_WINDOW_MS, copyText, messageActions } from '../src/chat/menu';
import { RECALLED_PREVIEW, previewText } from '../src/chat/preview';
import { highlightParts, matchesQuery } from '../src/chat/search';
import {
  sessionAfterClear,
  sessionAfterEdit,
  sessionAfterRecall,
  sessionAfterRemoval,
} from '../src/chat/sessions';
import { filterTargets, mergeTargets } from '../src/chat/targets';

const ME = '1000000000000000001';
const PEER = '1000000000000000002';
const NOW = 1_732_400_000_000;

function msg(n: number, patch: Partial<Message> = {}): Message {
  const id = `18660000000000000${String(n).padStart(2, '0')}`;
  return {
    id,
    uuid: `u-${n}`,
    chatType: 'Friend',
    from: ME,
    to: PEER,
    groupId: '',
    msgType: 'Text',
    content: `text ${n}`,
    serverReceiveTime: NOW + n * 1000,
    createTime: NOW + n * 1000,
    msgStatus: 'Unread',
    ...patch,
  };
}

function session(patch: Partial<Session> = {}): Session {
  return {
    id: PEER,
    type: 'Friend',
    chatType: 'Friend',
    friendMemberId: PEER,
    groupId: '',
    name: 'Bob',
    remark: '',
    headUrl: '',
    lastMessageId: msg(3).id,
    lastMessageType: 'Text',
    lastMessageContent: 'text 3',
    lastMessageTime: NOW + 3000,
    unreadCount: 0,
    topMessage: 'N',
    ...patch,
  };
}

const ids = (list: Message[]) => list.map((m) => m.uuid);

describe('timeline changes from edits, recalls, deletions and clears', () => {
  const timeline = [msg(1), msg(2), msg(3)];

  it('replaces the content of an edited message in place and marks it edited', () => {
    const changes = withEdit(noChanges, msg(2).id, 'new text', NOW + 9000);
    const out = applyChanges(timeline, changes);
    assert.deepEqual(ids(out), ['u-1', 'u-2', 'u-3']);
    assert.equal(out[1].content, 'new text');
    assert.equal(out[1].edited, true);
    assert.equal(out[0].edited, undefined);
  });

  it('keeps the newest edit when pushes arrive out of order', () => {
    let changes = withEdit(noChanges, msg(2).id, 'second', NOW + 20_000);
    changes = withEdit(changes, msg(2).id, 'first', NOW + 10_000);
    assert.equal(applyChanges(timeline, changes)[1].content, 'second');
  });

  it('does not let an older local edit override newer server content', () => {
    const served = [msg(1, { content: 'server', edited: true, editTime: NOW + 50_000 })];
    const changes = withEdit(noChanges, msg(1).id, 'stale', NOW + 40_000);
    assert.equal(applyChanges(served, changes)[0].content, 'server');
  });

  it('turns a recalled message into a recall line with no content, edits no longer apply', () => {
    let changes = withRecall(noChanges, [msg(3).id], NOW + 9000);
    changes = withEdit(changes, msg(3).id, 'late edit', NOW + 9500);
    const out = applyChanges(timeline, changes);
    assert.equal(out[2].recalled, true);
    assert.equal(out[2].content, '');
  });

  it('removes a batch of deleted ids given by one push', () => {
    const out = applyChanges(timeline, withRemoved(noChanges, [msg(1).id, msg(3).id]));
    assert.deepEqual(ids(out), ['u-2']);
  });

  it('merges the event lines a removal makes adjacent, keeping the newer', () => {
    const list = [
      msg(1, { msgType: 'Event', content: 'Bob joined' }),
      msg(2),
      msg(3, { msgType: 'Event', content: 'Bob joined' }),
      msg(4, { msgType: 'Event', content: 'Other' }),
    ];
    const out = applyChanges(list, withRemoved(noChanges, [msg(2).id]));
    assert.deepEqual(ids(out), ['u-3', 'u-4']);
    assert.deepEqual(ids(applyChanges(list, noChanges)), ['u-1', 'u-2', 'u-3', 'u-4'], 'nothing merges without a removal');
  });

  it('merges adjacent recall lines of one sender after a removal between them', () => {
    const list = [msg(1, { recalled: true, content: '' }), msg(2), msg(3, { recalled: true, content: '' })];
    assert.deepEqual(ids(applyChanges(list, withRemoved(noChanges, [msg(2).id]))), ['u-3']);
  });

  it('hides what was sent up to the clear time, keeps newer and unsent messages', () => {
    const unsent = msg(0, { id: '', msgStatus: 'sending', createTime: NOW });
    const out = applyChanges([...timeline, unsent], withCleared(noChanges, NOW + 2000));
    assert.deepEqual(ids(out), ['u-3', 'u-0']);
  });

  it('expands a deletion to every message of the same forwarded batch', () => {
    const list = [msg(1, { forwardBatchId: 'b1' }), msg(2, { forwardBatchId: 'b1' }), msg(3), msg(4, { forwardBatchId: 'b2' })];
    assert.deepEqual(expandForwardBatches(list, [msg(2).id]), [msg(2).id, msg(1).id]);
    assert.deepEqual(expandForwardBatches(list, [msg(3).id]), [msg(3).id]);
  });
});

describe('forward selection', () => {
  it('refuses ids shorter than 5 characters after an underscore', () => {
    assert.equal(forwardIdOk('local_1234'), false);
    assert.equal(forwardIdOk('local_12345'), true);
    assert.equal(forwardIdOk('1866000000000000001'), true);
    assert.equal(forwardIdOk(''), false);
  });

  it('refuses recalled messages, call records, events and unsent messages', () => {
    assert.equal(canForward(msg(1)), true);
    assert.equal(canForward(msg(1, { recalled: true })), false);
    assert.equal(canForward(msg(1, { msgType: 'VoiceCall' })), false);
    assert.equal(canForward(msg(1, { msgType: 'VideoCall' })), false);
    assert.equal(canForward(msg(1, { msgType: 'Event' })), false);
    assert.equal(canForward(msg(1, { id: '', msgStatus: 'sending' })), false);
    assert.equal(canForward(msg(1, { msgStatus: 'failedSent' })), false);
  });

  it('selects at most 10 records and says so at the 11th', () => {
    let selected: string[] = [];
    for (let n = 1; n <= FORWARD_MAX; n++) {
      const result = toggleSelection(selected, msg(n));
      assert.equal(result.refusal, undefined);
      selected = result.selected;
    }
    const eleventh = toggleSelection(selected, msg(11));
    assert.equal(eleventh.refusal, 'forward.tooMany');
    assert.equal(eleventh.selected.length, 10);
    assert.equal(toggleSelection(selected, msg(3)).selected.length, 9, 'a selected one is removed');
  });

  it('refuses an unsupported message with its notice, and a forward of nothing', () => {
    assert.equal(toggleSelection([], msg(1, { recalled: true })).refusal, 'forward.unsupported');
    assert.equal(forwardRefusal([]), 'forward.none');
    assert.equal(forwardRefusal([msg(1).id]), undefined);
  });

  it('forwards in chat order, whatever the order of selection', () => {
    const timeline = [msg(1), msg(2), msg(3)];
    assert.deepEqual(inChatOrder([msg(3).id, msg(1).id], timeline), [msg(1).id, msg(3).id]);
  });
});

describe('message menu', () => {
  it('offers everything on a fresh own text', () => {
    assert.deepEqual(messageActions(msg(1), ME, NOW + 5000), [
      'reply',
      'edit',
      'recall',
      'copy',
      'forward',
      'select',
      'favourite',
      'deleteForMe',
      'deleteForEveryone',
    ]);
  });

  it('offers no edit, recall or delete for everyone on the peer’s messages', () => {
    const theirs = msg(1, { from: PEER, to: ME });
    assert.deepEqual(messageActions(theirs, ME, NOW), ['reply', 'copy', 'forward', 'select', 'favourite', 'deleteForMe']);
  });

  it('stops offering recall after 24 hours, and edit on non-text', () => {
    const old = msg(1);
    assert.ok(!messageActions(old, ME, NOW + 1000 + RECALL_WINDOW_MS + 1).includes('recall'));
    assert.ok(messageActions(old, ME, NOW + 1000 + RECALL_WINDOW_MS).includes('recall'));
    const card = msg(2, { msgType: 'ShareContact', content: '{"memberId":"1"}' });
    assert.ok(!messageActions(card, ME, NOW).includes('edit'));
    assert.ok(messageActions(msg(3, { msgType: 'Reply', parentMessageId: msg(1).id }), ME, NOW).includes('edit'));
  });

  it('offers only delete for me on a recall line and only copy on an unsent message', () => {
    assert.deepEqual(messageActions(msg(1, { recalled: true, content: '' }), ME, NOW), ['deleteForMe']);
    assert.deepEqual(messageActions(msg(1, { id: '', msgStatus: 'sending' }), ME, NOW), ['copy']);
    assert.equal(copyText(msg(1, { msgType: 'Forward', forwardType: 'Text', content: 'fw' })), 'fw');
  });
});

describe('conversation previews after changes', () => {
  const remaining = [msg(1), msg(2), msg(3)];

  it('shows an edit of the last message', () => {
    assert.equal(sessionAfterEdit([session()], PEER, msg(3).id, 'edited')[0].lastMessageContent, 'edited');
    assert.equal(sessionAfterEdit([session()], PEER, msg(2).id, 'edited')[0].lastMessageContent, 'text 3');
  });

  it('shows [recalled] for a recalled last message', () => {
    const [after] = sessionAfterRecall([session()], PEER, [msg(3).id]);
    assert.equal(after.lastMessageContent, RECALLED_PREVIEW);
    assert.equal(previewText(after.lastMessageType, after.lastMessageContent, (key) => key), 'preview.recalled');
  });

  it('falls back to the newest remaining message when the last one is deleted', () => {
    const [after] = sessionAfterRemoval([session()], PEER, [msg(3).id], remaining);
    assert.equal(after.lastMessageId, msg(2).id);
    assert.equal(after.lastMessageContent, 'text 2');
    assert.equal(after.lastMessageTime, NOW + 2000);
  });

  it('blanks the preview when nothing is left, and ignores deletions of older messages', () => {
    const [blank] = sessionAfterRemoval([session()], PEER, remaining.map((m) => m.id), remaining);
    assert.deepEqual([blank.lastMessageId, blank.lastMessageContent, blank.lastMessageTime], ['', '', 0]);
    const list = [session()];
    assert.equal(sessionAfterRemoval(list, PEER, [msg(1).id], remaining), list);
  });

  it('blanks the preview of a cleared chat', () => {
    assert.equal(sessionAfterClear([session()], PEER, NOW + 3000)[0].lastMessageContent, '');
    assert.equal(sessionAfterClear([session()], PEER, NOW + 1000)[0].lastMessageContent, 'text 3');
  });

  it('previews replies as their text and contact cards as a placeholder', () => {
    const t = (key: string) => key;
    assert.equal(previewText('Reply', 'sure', t), 'sure');
    assert.equal(previewText('ShareContact', '{}', t), 'preview.ShareContact');
  });
});

describe('search in a conversation', () => {
  it('matches text case-insensitively and never recalled messages', () => {
    assert.equal(matchesQuery(msg(1, { content: 'Hello World' }), 'world'), true);
    assert.equal(matchesQuery(msg(1, { content: 'Hello' }), '  '), false);
    assert.equal(matchesQuery(msg(1, { recalled: true, content: '' }), 'text'), false);
    const card = msg(2, { msgType: 'ShareContact', content: JSON.stringify({ memberId: '9', name: 'Carol', headUrl: '', account: 'carol1' }) });
    assert.equal(matchesQuery(card, 'caro'), true);
  });

  it('splits a text into highlighted and plain runs', () => {
    assert.deepEqual(highlightParts('a Cat and a cat', 'cat'), [
      { text: 'a ', match: false },
      { text: 'Cat', match: true },
      { text: ' and a ', match: false },
      { text: 'cat', match: true },
    ]);
    assert.deepEqual(highlightParts('abc', ''), [{ text: 'abc', match: false }]);
  });
});

describe('contact cards and forward targets', () => {
  it('parses a card and refuses what is not one', () => {
    assert.deepEqual(parseCard('{"memberId":"7","name":"Ann","headUrl":"","account":"ann123"}'), {
      memberId: '7',
      name: 'Ann',
      headUrl: '',
      account: 'ann123',
    });
    assert.equal(parseCard('hello'), null);
    assert.equal(parseCard('{"name":"x"}'), null);
  });

  it('lists recent chats first, then other friends, once each, and searches by name or account', () => {
    const friend = (id: string, name: string, code: string): Friend => ({
      id,
      friendMemberId: id,
      name,
      remark: '',
      code,
      username: code,
      headUrl: '',
      memberLevelCode: '',
      blocked: false,
      createTime: 0,
    });
    const friends = [friend('1', 'Ann', 'ann1'), friend('2', 'Bob', 'bob2'), friend('3', 'Carol', 'carol3')];
    const sessions = [session({ id: '3', name: 'Carol' }), session({ id: '9', name: 'Gone' })];
    const targets = mergeTargets(sessions, friends, ['2']);
    assert.deepEqual(
      targets.map((x) => x.id),
      ['3', '1'],
    );
    assert.deepEqual(
      filterTargets(targets, 'ANN').map((x) => x.id),
      ['1'],
    );
    assert.deepEqual(
      filterTargets(targets, 'carol3').map((x) => x.id),
      ['3'],
    );
  });
});
