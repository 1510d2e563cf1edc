// Sets up members, friendships and messages over the REST API, for specs that start past them.
import { BASE_URL, DATA_DIR, USER_AGENT, smsCodeFor, type Member } from './harness';

interface Envelope<T> {
  code: string;
  data: T;
  info: string;
}

/** Calls an API route and answers its status and envelope, refusals included. */
export async function rawCall<T = unknown>(
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number } & Envelope<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, ...((await response.json()) as Envelope<T>) };
}

/** Calls an API route that must succeed and answers its data. */
export async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const envelope = await rawCall<T>(method, path, token, body);
  if (envelope.code !== '200') throw new Error(`${method} ${path}: ${envelope.code} ${envelope.info}`);
  return envelope.data;
}

export interface Account extends Member {
  token: string;
}

/** Registers and logs in a member through the API. */
export async function registerOverApi(member: Member): Promise<Account> {
  await call('GET', `/v1/member/sms/send?phone=${member.phone}&type=register`, null);
  const smsCode = await smsCodeFor(member.phone);
  await call('POST', '/v1/member/memberInfo/register', null, {
    phone: member.phone,
    smsCode,
    account: member.account,
    password: member.password,
    tenantCode: 'x0001',
  });
  const login = await call<{ id: string; token: string }>('POST', '/v1/member/memberInfo/login', null, {
    account: member.account,
    password: member.password,
    tenantCode: 'x0001',
  });
  member.id = login.id;
  return { ...member, id: login.id, token: login.token };
}

export async function befriendOverApi(a: Account, b: Account): Promise<void> {
  const applied = await call<{ id: string }>('POST', '/v1/chat/applyInfo/build', a.token, {
    friendMemberId: b.id,
    content: 'hi',
  });
  await call('PUT', '/v1/chat/applyInfo/modify', b.token, { id: applied.id, status: 'accepted' });
}

export async function sendOverApi(from: Account, to: Account, content: string): Promise<void> {
  await call('POST', '/v1/message/send', from.token, {
    uuid: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    chatType: 'Friend',
    to: to.id,
    msgType: 'Text',
    content,
  });
}

export async function sendToGroupOverApi(from: Account, groupId: string, content: string): Promise<void> {
  await call('POST', '/v1/message/send', from.token, {
    uuid: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    chatType: 'Group',
    groupId,
    msgType: 'Text',
    content,
  });
}

/** Builds a group of owner and members, and answers its id and its members' names as the group shows them. */
export async function groupOverApi(
  owner: Account,
  name: string,
  members: Account[],
): Promise<{ groupId: string; names: Map<string, string> }> {
  const built = await call<{ groupId: string; position: number }>('POST', '/v1/chat/groupInfo/build', owner.token, {
    name,
    headUrl: '',
    notice: '',
    memberIds: members.map((member) => member.id),
  });
  const listed = await call<{ memberId: string; name: string; nickname?: string }[]>(
    'GET',
    `/v1/chat/groupInfo/listGroupMember?groupId=${built.groupId}&after=${built.position}`,
    owner.token,
  );
  const names = new Map(listed.map((member) => [member.memberId, member.nickname || member.name || member.memberId]));
  return { groupId: built.groupId, names };
}

/**
 * A token signed with the data directory's secret as imctl signs it: prefix + base64url(fields
 * joined by '|', the last the expiry in ms) + "." + base64url(HMAC-SHA256(secret, purpose + "\0" + payload)).
 */
async function signedToken(prefix: string, purpose: string, fields: string[], ttlMs: number): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const { readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const secret = await readFile(path.join(DATA_DIR, 'secret.key'));
  const payload = Buffer.from([...fields, Date.now() + ttlMs].join('|')).toString('base64url');
  const mac = createHmac('sha256', secret).update(`${purpose}\0`).update(payload).digest('base64url');
  return `${prefix}${payload}.${mac}`;
}

/** An operator token for the admin API. */
export function operatorToken(): Promise<string> {
  return signedToken('op.', 'operator', ['e2e'], 60_000);
}

/** An auditor token of tenant. */
export function auditorToken(name: string, tenant: string): Promise<string> {
  return signedToken('au.', 'auditor', [name, tenant], 600_000);
}

/** The invitation code of a member, as its referral link carries it. */
export async function inviteCodeOverApi(member: Account): Promise<string> {
  return (await call<{ code: string }>('GET', '/v1/chat/friendInfo/getRefereeLink', member.token)).code;
}

/** Calls the admin API as an operator. */
export async function adminOverApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  return call<T>(method, path, await operatorToken(), body);
}
