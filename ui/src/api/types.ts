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
  unreadCount: number;
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
}

export interface SendBody {
  uuid: string;
  chatType: 'Friend';
  to: string;
  msgType: 'Text' | 'Picture' | 'VideoMsg' | 'VoiceMsg' | 'File';
  content: string;
}

export interface SendResult {
  id: string;
  uuid: string;
  serverReceiveTime: number;
  position: number;
}

export interface ReadAck {
  chatType: ChatType;
  from: string;
  to: string;
  messageId: string;
  messageIds?: string[];
}

export type SessionEndType = 'KickOut' | 'Disable' | 'Offline' | 'Logout';
