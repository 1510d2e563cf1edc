// Pure rules of the group chat (docs/api-groups.md, "Group chat"): mention placeholders, the
// system lines, the mention picker's text edits, the pinned list and who deletes for everyone.
import type { GroupRole, Message } from '../api/types';
import type { MessageKey } from '../i18n';

/** `@[0000000000000000000]` mentions every member but the sender. */
export const MENTION_ALL_ID = '0000000000000000000';

const PLACEHOLDER = /@\[(\d+)\]/g;

/**
 * Replaces each `@[id]` with the member's name: `@alice` in a message (`at`), plain `alice` in
 * a system line. An unknown member keeps its id; the mention-all id becomes `everyone`.
 */
export function resolveMentions(
  text: string,
  nameOf: (memberId: string) => string,
  everyone: string,
  at = true,
): string {
  return text.replace(PLACEHOLDER, (_whole, id: string) => {
    const name = id === MENTION_ALL_ID ? everyone : nameOf(id) || id;
    return at ? `@${name}` : name;
  });
}

/** The member ids an AtText mentions, in order, once each. */
export function mentionedIds(content: string): string[] {
  const ids: string[] = [];
  for (const match of content.matchAll(PLACEHOLDER)) if (!ids.includes(match[1]!)) ids.push(match[1]!);
  return ids;
}

/** The line each system event shows, in the page's language. */
export const EVENT_LINES = {
  Create: 'event.Create',
  Join: 'event.Join',
  Remove: 'event.Remove',
  Leave: 'event.Leave',
  SetMemberRole: 'event.SetMemberRole',
  CancelMemberRole: 'event.CancelMemberRole',
  TransferOwner: 'event.TransferOwner',
  ModifyName: 'event.ModifyName',
  ModifyNotice: 'event.ModifyNotice',
  ModifyHead: 'event.ModifyHead',
  MuteAll: 'event.MuteAll',
  UnmuteAll: 'event.UnmuteAll',
  MuteMember: 'event.MuteMember',
  UnmuteMember: 'event.UnmuteMember',
  AddTop: 'event.AddTop',
  DelTop: 'event.DelTop',
} as const satisfies Record<string, MessageKey>;

const NEW_NAME = ' changed the group name to ';

/**
 * The text of a system line (msgType Event): with a translation, the line of its operationType
 * naming the operator and the targets; otherwise (an unknown type) its English content with the
 * members named.
 */
export function eventLineText(
  message: Pick<Message, 'content' | 'operationType' | 'operatorId' | 'targetId'>,
  nameOf: (memberId: string) => string,
  everyone: string,
  translate?: (key: MessageKey, params: Record<string, string>) => string,
): string {
  const key = message.operationType ? EVENT_LINES[message.operationType as keyof typeof EVENT_LINES] : undefined;
  if (!translate || !key || !message.operatorId) return resolveMentions(message.content, nameOf, everyone, false);
  const named = (id: string) => nameOf(id) || id;
  const targets = (message.targetId ?? '').split(',').filter(Boolean).map(named).join(', ');
  const at = message.content.indexOf(NEW_NAME);
  const name = at >= 0 ? message.content.slice(at + NEW_NAME.length) : '';
  return translate(key, { op: named(message.operatorId), target: targets, name });
}

/**
 * The `@` being typed just before the caret, as the picker's query: "" right after the `@`,
 * "al" after `@al`; null when the caret is not in a mention (a space ends it).
 */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (/\s/.test(query)) return null;
  return { start: at, query };
}

export interface Mention {
  id: string;
  name: string;
  headUrl?: string;
}

/** Puts `@name ` in place of the `@query` before the caret; answers the text and the caret after it. */
export function insertMention(text: string, caret: number, name: string): { text: string; caret: number } {
  const found = mentionQuery(text, caret);
  const start = found ? found.start : caret;
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/**
 * The content to send: each picked mention still in the text as `@name` becomes `@[id]`; an
 * AtText when any did, else the text as typed.
 */
export function encodeMentions(text: string, picked: readonly Mention[]): { content: string; at: boolean } {
  let content = text;
  let at = false;
  // Longer names first, so "@Al" does not eat the start of "@Alice".
  for (const mention of [...picked].sort((a, b) => b.name.length - a.name.length)) {
    const token = `@${mention.name}`;
    if (!content.includes(token)) continue;
    content = content.split(token).join(`@[${mention.id}]`);
    at = true;
  }
  return { content, at };
}

/** Members whose name holds the query, "everyone" first while it matches too. */
export function mentionCandidates(
  members: readonly Mention[],
  me: string,
  query: string,
  everyone: string,
): Mention[] {
  const needle = query.trim().toLowerCase();
  const all = [{ id: MENTION_ALL_ID, name: everyone }, ...members.filter((member) => member.id !== me)];
  return needle ? all.filter((member) => member.name.toLowerCase().includes(needle)) : all;
}

/** Pin pushes: 50 one pin or unpin, 39 the whole list of pinned ids. */
export type PinPush =
  | { kind: 'result'; messageId: string; operationType: 'AddTop' | 'DelTop' }
  | { kind: 'refresh'; pinnedMessageIds: string[] };

/** The pinned ids after a push, latest pinned first; at most 10 are kept. */
export function applyPinPush(pinned: readonly string[], push: PinPush): string[] {
  if (push.kind === 'refresh') return [...push.pinnedMessageIds];
  const others = pinned.filter((id) => id !== push.messageId);
  return push.operationType === 'AddTop' ? [push.messageId, ...others].slice(0, 10) : others;
}

/** Pinned messages in the order of the ids; ones not loaded yet are left out. */
export function pinnedInOrder(ids: readonly string[], messages: readonly Message[]): Message[] {
  const byId = new Map(messages.map((message) => [message.id, message]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** Only the owner and the admins pin and unpin. */
export function mayPin(role: GroupRole | undefined): boolean {
  return role === 'Owner' || role === 'Admin';
}

/** Who has read a group message: its sender asks, of a message on the server, never a system line. */
export function mayListReaders(
  message: Pick<Message, 'id' | 'from' | 'msgType' | 'msgStatus' | 'recalled'>,
  me: string,
): boolean {
  const onServer = !!message.id && message.msgStatus !== 'sending' && message.msgStatus !== 'failedSent';
  return onServer && message.from === me && message.msgType !== 'Event' && !message.recalled;
}

/**
 * Delete for everyone: in a friend chat one's own messages; in a group the owner and the admins,
 * anyone's messages (deleteRemoteGroupMessage), never a system line.
 */
export function mayDeleteForEveryone(
  chatType: 'Friend' | 'Group',
  message: Pick<Message, 'from' | 'msgType' | 'recalled'>,
  me: string,
  role: GroupRole | undefined,
): boolean {
  if (message.msgType === 'Event') return false;
  if (chatType === 'Friend') return message.from === me && !message.recalled;
  return mayPin(role) && !message.recalled;
}

/** The join requests of one group still waiting for an answer, oldest first. */
export function pendingRequestsOf<T extends { groupId: string; status: string; createTime: number }>(
  records: readonly T[],
  groupId: string,
): T[] {
  return records
    .filter((record) => record.groupId === groupId && record.status === 'pending')
    .sort((a, b) => a.createTime - b.createTime);
}

/** What an invitation did: the owner and the admins add members at once, a Normal member asks. */
export function inviteOutcome(role: GroupRole | undefined): 'added' | 'requested' {
  return role === 'Normal' ? 'requested' : 'added';
}

/** How many sender-name colours the styles define (`--sender-0` …), each readable on light and dark. */
export const SENDER_TONES = 8;

/** The sender-name colour a member id prefers, for a member no longer in the group too. */
export function senderTone(memberId: string): number {
  let hash = 0;
  for (const char of memberId) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash % SENDER_TONES;
}

/**
 * The group's sender-name colours by member id. Members take turns in the order they joined, each
 * taking the colour its id prefers or, when an earlier member holds it, the next free one: no two
 * members of a group of eight or fewer share a colour, and a member keeps theirs when others join.
 * Past eight, later members take the colour their id prefers.
 */
export function senderTones(members: { memberId: string; joinTime: number }[]): Map<string, number> {
  const order = [...members].sort((a, b) => a.joinTime - b.joinTime || a.memberId.localeCompare(b.memberId));
  const tones = new Map<string, number>();
  const taken = new Set<number>();
  for (const { memberId } of order) {
    let tone = senderTone(memberId);
    if (taken.size < SENDER_TONES) {
      while (taken.has(tone)) tone = (tone + 1) % SENDER_TONES;
      taken.add(tone);
    }
    tones.set(memberId, tone);
  }
  return tones;
}
