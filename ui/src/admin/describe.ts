// Each event of a tenant's history as one line an auditor reads ("alice sent bob: …"), with the
// members and groups it names resolved to their names.
import type { MessageKey, Translate } from '../i18n';
import { previewText } from '../chat/preview';
import type { AuditEvent, AuditGroup, AuditPerson } from './api';

/** The event types of the log, for the type filter. */
export const eventTypes = [
  'MessageSent', 'MessageEdited', 'MessageRecalled', 'MessagesDeleted', 'MessagesHidden', 'ChatCleared',
  'GroupCreated', 'GroupMembersAdded', 'GroupMemberRemoved', 'GroupMemberLeft', 'GroupMemberRoleChanged',
  'GroupOwnershipTransferred', 'GroupModified', 'GroupMemberMuted', 'GroupMemberNicknameSet', 'GroupDissolved',
  'GroupJoinRequested', 'GroupJoinAnswered', 'GroupMessagePinned', 'GroupMessageUnpinned',
  'FriendRequested', 'FriendRequestAccepted', 'FriendRequestRejected', 'FriendRequestDeleted', 'FriendRemoved',
  'FriendBlocked', 'FriendUnblocked', 'FriendRemarked',
  'MemberRegistered', 'MemberSessionStarted', 'MemberSessionEnded', 'MemberLoginFailed', 'MemberPasswordChanged',
  'MemberPasswordLocked', 'MemberProfileModified', 'MemberAccountChanged', 'MemberPhoneChanged', 'MemberBanned',
  'MemberUnbanned', 'MemberLevelChanged',
  'CallStarted', 'CallAnswered', 'CallEnded', 'AuditAccessed', 'TenantCreated', 'TenantSettingsChanged',
] as const;

export interface Names {
  members: Map<string, AuditPerson>;
  groups: Map<string, AuditGroup>;
}

/** How a member reads: its name and account, else its id. */
export function personLabel(names: Names, id: string): string {
  const p = names.members.get(id);
  if (!p) return id || '?';
  return p.name && p.name !== p.account ? `${p.name} (@${p.account})` : `@${p.account}`;
}

export function groupLabel(names: Names, id: string): string {
  return names.groups.get(id)?.name || id || '?';
}

type Data = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The stream's category and id: x0001.group-42 is group, 42. */
export function streamParts(stream: string): { category: string; id: string } {
  const rest = stream.slice(stream.indexOf('.') + 1);
  const dash = rest.indexOf('-');
  return dash < 0 ? { category: rest, id: '' } : { category: rest.slice(0, dash), id: rest.slice(dash + 1) };
}

/** The member the metadata actor names, "" for an auditor's, an operator's or none. */
function actorMember(e: AuditEvent): string {
  return /^\d+$/.test(e.actor) ? e.actor : '';
}

/** The ids an event names, to resolve before it is shown. */
export function namedIds(e: AuditEvent): { members: string[]; groups: string[] } {
  const d = (e.data ?? {}) as Data;
  const { category, id } = streamParts(e.stream);
  const members = [actorMember(e), str(d.from), str(d.to), str(d.by), str(d.member), str(d.owner), str(d.editor), str(d.memberId), ...strs(d.members)];
  const groups = [str(d.groupId)];
  if (category === 'member') members.push(id);
  if (category === 'group') groups.push(id);
  if (category === 'friendship' || category === 'chat') members.push(...id.split('_'));
  if (Array.isArray(d.requests)) for (const r of d.requests as Data[]) members.push(str(r.member));
  return { members: members.filter((m) => /^\d+$/.test(m)), groups: groups.filter(Boolean) };
}

const auditActions: Record<string, MessageKey> = {
  read: 'audit.action.read',
  export: 'audit.action.export',
  replay: 'audit.action.replay',
  verify: 'audit.action.verify',
  browse: 'audit.action.browse',
};

/** The event as one line in the page's language. */
export function describeEvent(e: AuditEvent, names: Names, t: Translate): string {
  const d = (e.data ?? {}) as Data;
  const { category, id } = streamParts(e.stream);
  const who = (v: unknown) => personLabel(names, str(v));
  const actor = actorMember(e) || str(d.by);
  const group = groupLabel(names, str(d.groupId) || (category === 'group' ? id : ''));
  const other = (me: string) => personLabel(names, id.split('_').find((m) => m !== me) ?? '');
  const text = (msgType: string, content: string) => {
    const shown = previewText(msgType, content, t);
    return shown.length > 120 ? `${shown.slice(0, 119)}…` : shown;
  };
  switch (e.type) {
    case 'MessageSent':
      return d.groupId || d.chatType === 'Group'
        ? t('audit.line.sentGroup', { from: who(d.from), group, text: text(str(d.msgType), str(d.content)) })
        : t('audit.line.sent', { from: who(d.from), to: who(d.to), text: text(str(d.msgType), str(d.content)) });
    case 'MessageEdited':
      return t('audit.line.edited', { who: who(d.editor), text: text('Text', str(d.content)) });
    case 'MessageRecalled':
      return t('audit.line.recalled', { who: who(d.by) });
    case 'MessagesDeleted':
      return t('audit.line.deleted', { who: who(d.by), n: strs(d.messageIds).length });
    case 'GroupCreated':
      return t('audit.line.groupCreated', { who: who(d.owner), group: str(d.name) || group, members: strs(d.members).map(who).join(', ') });
    case 'GroupMembersAdded':
      return t('audit.line.membersAdded', { who: who(d.by), members: strs(d.members).map(who).join(', '), group });
    case 'GroupMemberRemoved':
      return t('audit.line.memberRemoved', { who: who(d.by), member: who(d.member), group });
    case 'GroupMemberLeft':
      return t('audit.line.memberLeft', { member: who(d.member), group });
    case 'GroupMemberRoleChanged':
      return d.role === 'Admin'
        ? t('audit.line.becameAdmin', { member: who(d.member), group })
        : t('audit.line.noLongerAdmin', { member: who(d.member), group });
    case 'GroupOwnershipTransferred':
      return t('audit.line.ownership', { from: who(d.from), to: who(d.to), group });
    case 'GroupModified':
      return t('audit.line.groupModified', { who: who(d.by), group });
    case 'GroupMemberMuted':
      return t('audit.line.muted', { who: who(d.by), member: who(d.member), group });
    case 'GroupDissolved':
      return t('audit.line.dissolved', { who: who(d.by), group });
    case 'FriendRequested':
      return t('audit.line.friendRequested', { from: who(d.from), to: who(d.to) });
    case 'FriendRequestAccepted':
      return t('audit.line.friendAccepted', { who: who(d.by), other: other(str(d.by)) });
    case 'FriendRemoved':
      return t('audit.line.friendRemoved', { who: who(d.by), other: other(str(d.by)) });
    case 'FriendBlocked':
      return t('audit.line.friendBlocked', { who: who(d.by), other: other(str(d.by)) });
    case 'MemberRegistered':
      return t('audit.line.registered', { member: who(id), account: str(d.account), phone: str(d.phone) });
    case 'MemberSessionStarted':
      return t('audit.line.loggedIn', { member: who(id), ip: str(d.ip) || '-' });
    case 'MemberSessionEnded':
      return t('audit.line.loggedOut', { member: who(id) });
    case 'MemberLoginFailed':
      return t('audit.line.loginFailed', { member: who(id) });
    case 'MemberBanned':
      return t('audit.line.banned', { member: who(id) });
    case 'MemberUnbanned':
      return t('audit.line.unbanned', { member: who(id) });
    case 'AccountReserved':
      return t('audit.line.accountReserved', { member: who(d.memberId), account: id });
    case 'PhoneReserved':
      return t('audit.line.phoneReserved', { member: who(d.memberId), phone: id });
    case 'SMSCodeIssued':
      return t('audit.line.codeSent', { phone: str(d.phone) || id, purpose: str(d.purpose) });
    case 'SMSCodeUsed':
      return t('audit.line.codeUsed', { phone: id });
    case 'AuditAccessed': {
      const action = t(auditActions[str(d.action)] ?? 'audit.action.read');
      const by = { name: str(d.auditor), tenant: str(d.tenant) };
      const params = { who: t(d.role === 'auditor' ? 'admin.role.auditor' : 'admin.role.operator', by), action };
      return d.allowed === false
        ? t('audit.line.accessRefused', { ...params, refusal: str(d.refusal) })
        : t('audit.line.accessed', params);
    }
  }
  const subject = actor || (category === 'member' ? id : '');
  return subject
    ? t('audit.line.other', { who: who(subject), type: e.type })
    : t('audit.line.otherNobody', { type: e.type });
}
