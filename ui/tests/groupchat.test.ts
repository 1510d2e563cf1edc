import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api/types';
import {
  MENTION_ALL_ID,
  applyPinPush,
  encodeMentions,
  eventLineText,
  insertMention,
  inviteOutcome,
  mayDeleteForEveryone,
  mayListReaders,
  mayPin,
  mentionCandidates,
  mentionQuery,
  mentionedIds,
  pendingRequestsOf,
  pinnedInOrder,
  resolveMentions,
  SENDER_TONES,
  senderTone,
  senderTones,
} from '../src/groups/chatLogic';
import { toPinPush } from '../src/groups/pins';
import { markSessionRead } from '../src/chat/sessions';
import { mergeTargets } from '../src/chat/targets';
import { messageChangesAtom } from '../src/state/chat';
import { appStore } from '../src/state/store';
import { handlePush } from '../src/ws/handlers';
import type { Session } from '../src/api/types';

const names: Record<string, string> = { '11': 'alice', '22': 'bob' };
const nameOf = (id: string) => names[id] ?? '';

function message(id: string, extra: Partial<Message> = {}): Message {
  return {
    id,
    uuid: `u${id}`,
    chatType: 'Group',
    from: '11',
    to: '',
    groupId: '900',
    msgType: 'Text',
    content: `text ${id}`,
    serverReceiveTime: Number(id),
    createTime: Number(id),
    msgStatus: 'Read',
    ...extra,
  } as Message;
}

describe('group chat: event lines and mentions', () => {
  it('names the members of a system line without the @', () => {
    assert.equal(eventLineText({ content: '@[11] made @[22] an admin' }, nameOf, 'everyone'), 'alice made bob an admin');
    assert.equal(eventLineText({ content: '@[11] removed @[33]' }, nameOf, 'everyone'), 'alice removed 33');
  });

  it('writes a known system event in the page language, naming the operator and the targets', () => {
    const tr = (key: string, params: Record<string, string>) =>
      `${key}|${Object.entries(params)
        .map(([k, v]) => `${k}=${v}`)
        .join(';')}`;
    const join = { content: '@[11] invited @[22], @[33] to the group', operationType: 'Join', operatorId: '11', targetId: '22,33' };
    assert.equal(eventLineText(join, nameOf, 'everyone', tr), 'event.Join|op=alice;target=bob, 33;name=');
    const rename = { content: '@[11] changed the group name to New one', operationType: 'ModifyName', operatorId: '11', targetId: '' };
    assert.equal(eventLineText(rename, nameOf, 'everyone', tr), 'event.ModifyName|op=alice;target=;name=New one');
    const unknown = { content: '@[11] did @[22]', operationType: 'Other', operatorId: '11', targetId: '22' };
    assert.equal(eventLineText(unknown, nameOf, 'everyone', tr), 'alice did bob');
  });

  it('names the mentions of a message with the @, everyone for the mention-all id', () => {
    assert.equal(resolveMentions(`@[22] hi @[${MENTION_ALL_ID}]`, nameOf, 'everyone'), '@bob hi @everyone');
    assert.equal(resolveMentions('no mention @ here', nameOf, 'everyone'), 'no mention @ here');
    assert.deepEqual(mentionedIds('@[22] @[11] @[22]'), ['22', '11']);
  });

  it('finds the mention being typed before the caret', () => {
    assert.deepEqual(mentionQuery('hi @', 4), { start: 3, query: '' });
    assert.deepEqual(mentionQuery('hi @bo', 6), { start: 3, query: 'bo' });
    assert.equal(mentionQuery('hi @bob there', 13), null);
    assert.equal(mentionQuery('mail a@b', 8), null);
    assert.equal(mentionQuery('plain', 5), null);
  });

  it('inserts the picked name in place of the query and encodes it as a placeholder', () => {
    const inserted = insertMention('hi @bo and', 6, 'bob');
    assert.deepEqual(inserted, { text: 'hi @bob  and', caret: 8 });
    assert.deepEqual(encodeMentions('hi @bob and @everyone', [{ id: '22', name: 'bob' }, { id: MENTION_ALL_ID, name: 'everyone' }]), {
      content: `hi @[22] and @[${MENTION_ALL_ID}]`,
      at: true,
    });
    assert.deepEqual(encodeMentions('mention removed', [{ id: '22', name: 'bob' }]), { content: 'mention removed', at: false });
    assert.deepEqual(
      encodeMentions('@Al and @Alice', [
        { id: '1', name: 'Al' },
        { id: '2', name: 'Alice' },
      ]).content,
      '@[1] and @[2]',
    );
  });

  it('offers everyone first, then the other members matching the query', () => {
    const members = [
      { id: '11', name: 'alice' },
      { id: '22', name: 'bob' },
    ];
    assert.deepEqual(
      mentionCandidates(members, '11', '', 'everyone').map((m) => m.id),
      [MENTION_ALL_ID, '22'],
    );
    assert.deepEqual(
      mentionCandidates(members, '11', 'BO', 'everyone').map((m) => m.id),
      ['22'],
    );
  });
});

describe('group chat: pinned messages', () => {
  it('adds a pin first, drops an unpin, takes a refresh as it is', () => {
    let pinned = applyPinPush([], { kind: 'result', messageId: '1', operationType: 'AddTop' });
    pinned = applyPinPush(pinned, { kind: 'result', messageId: '2', operationType: 'AddTop' });
    assert.deepEqual(pinned, ['2', '1']);
    assert.deepEqual(applyPinPush(pinned, { kind: 'result', messageId: '2', operationType: 'AddTop' }), ['2', '1']);
    assert.deepEqual(applyPinPush(pinned, { kind: 'result', messageId: '1', operationType: 'DelTop' }), ['2']);
    assert.deepEqual(applyPinPush(pinned, { kind: 'refresh', pinnedMessageIds: ['9'] }), ['9']);
  });

  it('keeps at most ten pins', () => {
    let pinned: string[] = [];
    for (let i = 1; i <= 11; i++) pinned = applyPinPush(pinned, { kind: 'result', messageId: String(i), operationType: 'AddTop' });
    assert.equal(pinned.length, 10);
    assert.equal(pinned[0], '11');
  });

  it('reads pushes 50 and 39, ignoring others', () => {
    assert.deepEqual(toPinPush(50, { messageId: '5', operationType: 'DelTop' }), {
      kind: 'result',
      messageId: '5',
      operationType: 'DelTop',
    });
    assert.deepEqual(toPinPush(39, { pinnedMessageIds: ['1', '2'] }), { kind: 'refresh', pinnedMessageIds: ['1', '2'] });
    assert.equal(toPinPush(50, { messageId: '5', operationType: 'Other' }), null);
    assert.equal(toPinPush(39, {}), null);
  });

  it('lists pinned messages in the order of the ids', () => {
    const list = pinnedInOrder(['3', '1', '7'], [message('1'), message('3')]);
    assert.deepEqual(
      list.map((m) => m.id),
      ['3', '1'],
    );
  });
});

describe('group chat: permissions', () => {
  it('lets the owner and admins delete anyone’s message for everyone in a group, never a system line', () => {
    const others = { from: '22', msgType: 'Text', recalled: false };
    assert.equal(mayDeleteForEveryone('Group', others, '11', 'Owner'), true);
    assert.equal(mayDeleteForEveryone('Group', others, '11', 'Admin'), true);
    assert.equal(mayDeleteForEveryone('Group', { ...others, from: '11' }, '11', 'Normal'), false);
    assert.equal(mayDeleteForEveryone('Group', { ...others, msgType: 'Event' }, '11', 'Owner'), false);
    assert.equal(mayDeleteForEveryone('Group', { ...others, recalled: true }, '11', 'Owner'), false);
  });

  it('keeps a friend chat’s delete for everyone to one’s own messages', () => {
    assert.equal(mayDeleteForEveryone('Friend', { from: '11', msgType: 'Text' }, '11', undefined), true);
    assert.equal(mayDeleteForEveryone('Friend', { from: '22', msgType: 'Text' }, '11', undefined), false);
  });

  it('offers who has read a message to its sender only, once the server has it, never for a system line or a recall', () => {
    const mine = { id: '900', from: '11', msgType: 'Text', msgStatus: 'Read' as const };
    assert.equal(mayListReaders(mine, '11'), true);
    assert.equal(mayListReaders(mine, '22'), false, 'another member’s message');
    assert.equal(mayListReaders({ ...mine, id: '' }, '11'), false, 'not on the server yet');
    assert.equal(mayListReaders({ ...mine, msgStatus: 'sending' as const }, '11'), false);
    assert.equal(mayListReaders({ ...mine, msgStatus: 'failedSent' as const }, '11'), false);
    assert.equal(mayListReaders({ ...mine, msgType: 'Event', from: '' }, ''), false, 'a system line has no sender');
    assert.equal(mayListReaders({ ...mine, recalled: true }, '11'), false);
  });

  it('lets only the owner and admins pin', () => {
    assert.equal(mayPin('Owner'), true);
    assert.equal(mayPin('Admin'), true);
    assert.equal(mayPin('Normal'), false);
    assert.equal(mayPin(undefined), false);
  });
});

describe('group chat: join requests and reading', () => {
  it('lists one group’s pending requests, oldest first', () => {
    const records = [
      { id: 'a', groupId: '900', status: 'pending', createTime: 3 },
      { id: 'b', groupId: '900', status: 'accepted', createTime: 1 },
      { id: 'c', groupId: '901', status: 'pending', createTime: 1 },
      { id: 'd', groupId: '900', status: 'pending', createTime: 2 },
    ];
    assert.deepEqual(
      pendingRequestsOf(records, '900').map((r) => r.id),
      ['d', 'a'],
    );
  });

  it('says a Normal member’s invitation is a request', () => {
    assert.equal(inviteOutcome('Normal'), 'requested');
    assert.equal(inviteOutcome('Admin'), 'added');
    assert.equal(inviteOutcome('Owner'), 'added');
  });

  it('clears the unread count and the mention marker on reading', () => {
    const session = { id: '900', unreadCount: 2, atCount: 1 } as Session;
    assert.deepEqual(markSessionRead([session], '900')[0], { ...session, unreadCount: 0, atCount: 0 });
    const read = { id: '900', unreadCount: 0, atCount: 0 } as Session;
    const list = [read];
    assert.equal(markSessionRead(list, '900'), list);
  });
});

describe('group chat: forward targets', () => {
  it('lists group chats as targets only when asked', () => {
    const sessions = [
      { id: '900', chatType: 'Group', name: 'team', headUrl: '' },
      { id: '22', chatType: 'Friend', name: 'bob', headUrl: '' },
    ] as Session[];
    const friends = [{ id: '22', name: 'bob', remark: '', code: 'bob', headUrl: '' }] as unknown as Parameters<typeof mergeTargets>[1];
    assert.deepEqual(
      mergeTargets(sessions, friends).map((t) => t.id),
      ['22'],
    );
    const withGroups = mergeTargets(sessions, friends, [], true);
    assert.deepEqual(
      withGroups.map((t) => [t.id, !!t.group]),
      [
        ['900', true],
        ['22', false],
      ],
    );
  });
});

describe('group chat: pushes about messages', () => {
  const GROUP = '4000000000000000001';
  const ME = '1000000000000000001';

  it('applies a delete for everyone (16), an edit (34) and a clear (29) to the group', () => {
    handlePush(
      {
        cmd: 16,
        data: { messageIds: ['5'], chatType: 'Group', groupId: GROUP, from: '1000000000000000002', to: '', operationType: 'Delete', scope: 'Everyone', time: 1 },
      },
      ME,
    );
    assert.equal(appStore.get(messageChangesAtom)[GROUP]?.removed['5'], true);
    handlePush(
      { cmd: 34, data: { id: '6', chatType: 'Group', groupId: GROUP, from: '1000000000000000002', to: '', content: 'fixed', editTime: 2, operationType: 'edit' } },
      ME,
    );
    assert.equal(appStore.get(messageChangesAtom)[GROUP]?.edits['6']?.content, 'fixed');
    handlePush({ cmd: 29, data: { chatType: 'Group', groupId: GROUP, upTo: 1234 } }, ME);
    assert.equal(appStore.get(messageChangesAtom)[GROUP]?.clearedUpTo, 1234);
  });
});

describe('sender-name colours in a group', () => {
  // Ids that all prefer the same colour: the case a colour per member id alone gets wrong.
  const clashing: string[] = [];
  for (let n = 1866000000000000000n; clashing.length < SENDER_TONES; n++) {
    if (senderTone(String(n)) === senderTone('1866000000000000000')) clashing.push(String(n));
  }
  const joined = (ids: string[]) => ids.map((memberId, i) => ({ memberId, joinTime: 1000 + i }));

  it('gives each of up to eight members a colour of their own, even when their ids prefer one colour', () => {
    for (let size = 1; size <= SENDER_TONES; size++) {
      const tones = senderTones(joined(clashing.slice(0, size)));
      assert.equal(new Set(tones.values()).size, size, `${size} members`);
      for (const tone of tones.values()) assert.ok(tone >= 0 && tone < SENDER_TONES);
    }
  });

  it('lets a member keep their colour when others join, and the first comer keeps the one its id prefers', () => {
    const before = senderTones(joined(clashing.slice(0, 3)));
    const after = senderTones(joined(clashing.slice(0, 6)));
    for (const id of clashing.slice(0, 3)) assert.equal(after.get(id), before.get(id));
    assert.equal(before.get(clashing[0]), senderTone(clashing[0]));
  });

  it('does not depend on the order the members are listed in', () => {
    const members = joined(clashing);
    assert.deepEqual([...senderTones([...members].reverse())].sort(), [...senderTones(members)].sort());
  });

  it('past eight members, the later ones take the colour their id prefers', () => {
    const nine = [...clashing, '1866000000000009999'];
    const tones = senderTones(joined(nine));
    assert.equal(new Set(clashing.map((id) => tones.get(id))).size, SENDER_TONES);
    assert.equal(tones.get('1866000000000009999'), senderTone('1866000000000009999'));
  });
});
