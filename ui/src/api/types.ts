// Wire shapes of the server (docs/api-skeleton.md). Ids are digit strings, times are ms.

export interface Envelope<T> {
  code: string;
  data: T;
  info: string;
}

export interface UserInfo {
  id: string;
  name: string;
  code: string;
  username: string;
  phone: string;
  headUrl: string;
  gender: string;
  memberLevelCode: string;
  displayHead: string;
  sendBatchMessage: string;
  tenantCode: string;
}

export interface LoginResult extends UserInfo {
  token: string;
  wsKey: string;
}

export interface PublicInfo {
  id: string;
  name: string;
  code: string;
  username: string;
  headUrl: string;
  memberLevelCode: string;
}

export type ApplyStatus = 'pending' | 'accepted' | 'rejected';

export interface Apply {
  id: string;
  memberId: string;
  friendMemberId: string;
  remark: string;
  content: string;
  status: ApplyStatus;
  readFlag: string;
  createTime: number;
  updateTime: number;
  direction: 'sent' | 'received';
  member: PublicInfo;
}

export interface Page<T> {
  records: T[];
  total: number;
  curPage: number;
  pageSize: number;
}

export interface Friend {
  id: string;
  friendMemberId: string;
  name: string;
  remark: string;
  code: string;
  username: string;
  headUrl: string;
  memberLevelCode: string;
  blocked: boolean;
  createTime: number;
  /** the friend has a websocket open (33 pushes its changes) */
  isOnline?: boolean;
}

/** GET /member/memberInfo/getSystemInfo: the tenant's branding and switches. */
export interface SystemInfo {
  tenantCode: string;
  name: string;
  systemIcon: string;
  systemLogo: string;
  hasVoiceCall: boolean;
  showGroupMember: boolean;
  /** the tenant offers top-up: the page #/topup takes orders */
  topUp: boolean;
  /** the chat assistant's switch; chatGptReady: also set up (docs/api-assistant.md) */
  hasChatGpt: boolean;
  chatGptReady: boolean;
}

/** Push 33: a friend's first socket opened or last one closed. */
export interface OnlinePush {
  memberId: string;
  online: boolean;
  time: number;
}

export interface FriendGroup {
  id: string;
  name: string;
  friends: Friend[];
}

export type ChatType = 'Friend' | 'Group';

export interface Session {
  id: string;
  type: ChatType;
  chatType: ChatType;
  friendMemberId: string;
  groupId: string;
  name: string;
  remark: string;
  headUrl: string;
  lastMessageId: string;
  lastMessageType: string;
  lastMessageContent: string;
  lastMessageTime: number;
  /** who sent the last message (who recalled it), and the sender's name (the REST list only) */
  lastMessageFrom?: string;
  lastMessageFromName?: string;
  /** a File, or a Forward of one: the file's name (the content is then its placeholder) */
  lastMessageFileName?: string;
  /** a Forward: the original sender, its name (the REST list only) and the type forwarded */
  lastMessageForwardFrom?: string;
  lastMessageForwardFromName?: string;
  lastMessageForwardType?: string;
  unreadCount: number;
  /** group chats: unread mentions of this member */
  atCount?: number;
  topMessage: 'Y' | 'N';
  /** when it was pinned, ms; 0 when not pinned */
  topTime?: number;
  /** do-not-disturb: the unread count still counts, the badge is muted */
  dnd?: 'Y' | 'N';
  /** the member marked it unread: a badge even with no unread message */
  markedUnread?: 'Y' | 'N';
  /** removed from the list until a newer message (only in pushes) */
  hide?: 'Y' | 'N';
  /** in a pushed item (command 49): what changed it */
  operationType?: string;
}

/** Server states are Unread and Read; sending, sent and failedSent exist only in this client. */
export type MessageStatus = 'sending' | 'sent' | 'Unread' | 'Read' | 'failedSent';

export interface Message {
  id: string;
  uuid: string;
  chatType: ChatType;
  from: string;
  to: string;
  groupId: string;
  msgType: string;
  content: string;
  serverReceiveTime: number;
  createTime: number;
  msgStatus: MessageStatus;
  seq?: number;
  position?: number;
  failedSentCount?: number;
  /** Reply: the message replied to */
  parentMessageId?: string;
  edited?: boolean;
  editTime?: number;
  /** content is "" once recalled */
  recalled?: boolean;
  recallTime?: number;
  /** Forward: one id per forwarded batch and target, the original message and its type */
  forwardBatchId?: string;
  forwardFrom?: string;
  forwardType?: string;
  /** Event (a group's system line): what happened, who did it and to whom (comma-separated) */
  operationType?: string;
  operatorId?: string;
  targetId?: string;
}

/** The message types this client sends itself (Forward and ShareContact come from their own calls). */
export type SendType = 'Text' | 'AtText' | 'Reply' | 'Picture' | 'VideoMsg' | 'VoiceMsg' | 'File';

/** A friend chat names the friend (`to`), a group chat the group (`groupId`). */
export type ChatAddress = { chatType: 'Friend'; to: string } | { chatType: 'Group'; groupId: string };

export type SendBody = ChatAddress & {
  uuid: string;
  msgType: SendType;
  content: string;
  parentMessageId?: string;
};

export interface SendResult {
  id: string;
  uuid: string;
  serverReceiveTime: number;
  position: number;
}

export interface ReadAck {
  /** group chats: the group */
  groupId?: string;
  chatType: ChatType;
  from: string;
  to: string;
  messageId: string;
  /** the place in the chat up to which `from` read: messageId's seq, or a clear's point */
  seq?: number;
  messageIds?: string[];
}

/** Push 34: a message's new content. */
export interface EditPush {
  /** group chats: the group */
  groupId?: string;
  id: string;
  chatType: ChatType;
  from: string;
  to: string;
  content: string;
  editTime: number;
  operationType: 'edit';
  position?: number;
}

/** Push 16: messages recalled, or deleted for this member (scope Me) or for both (scope Everyone). */
export interface OperationPush {
  /** group chats: the group */
  groupId?: string;
  messageIds: string[];
  chatType: ChatType;
  from: string;
  to: string;
  operationType: 'Recall' | 'Delete';
  scope?: 'Me' | 'Everyone';
  operatorId?: string;
  time: number;
  position?: number;
}

/** Push 30: this member cleared a friend chat up to `upTo` (ms). */
export interface ClearPush {
  chatType: ChatType;
  friendMemberId?: string;
  groupId?: string;
  upTo: number;
  position?: number;
}

/** The content of a ShareContact message, as JSON text. */
export interface ContactCard {
  memberId: string;
  name: string;
  headUrl: string;
  account: string;
}

export interface ForwardTarget {
  chatType: ChatType;
  to: string;
}

export interface ForwardResult {
  messages: { id: string; uuid: string; serverReceiveTime: number; position: number; to: string }[];
}

export type SessionEndType = 'KickOut' | 'Disable' | 'Offline' | 'Logout';

// Groups (docs/api-groups.md).

export type GroupRole = 'Owner' | 'Admin' | 'Normal';

export type SendRate = 'NoLimit' | 'Backend' | 'TenPerMinute' | 'FivePerMinute';

export interface Group {
  id: string;
  name: string;
  headUrl: string;
  notice: string;
  owner: string;
  muteAll: boolean;
  /** when muteAll ends, ms; 0 while it lasts until lifted */
  muteAllUntil?: number;
  allowLeave: boolean;
  sendRate: SendRate;
  dissolved: boolean;
  memberCount: number;
  createTime: number;
  /** the asking member's role */
  myRole: GroupRole;
  /** the pinned messages, latest pinned first */
  pinnedMessageIds?: string[];
  /** N while the whole group is muted */
  allowSpeak: 'Y' | 'N';
}

export interface GroupMember {
  groupId: string;
  memberId: string;
  role: GroupRole;
  nickname: string;
  /** ms; 0 when not muted */
  mutedUntil: number;
  joinTime: number;
  name: string;
  headUrl: string;
  allowSpeak: 'Y' | 'N';
}

export interface MyGroups {
  managed: Group[];
  joined: Group[];
}

/** Pushes 21 (dissolved, left, removed), 22 (created, joined) and 23 (changed). */
export interface GroupPush {
  groupId: string;
  operationType: string;
  memberId?: string;
  position: number;
}
