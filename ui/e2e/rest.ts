// Sets up members, friendships and messages over the REST API, for specs that start past them.
import { BASE_URL, smsCodeFor, type Member } from './harness';

interface Envelope<T> {
  code: string;
  data: T;
  info: string;
}

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as Envelope<T>;
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
