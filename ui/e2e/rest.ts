// Sets up members, friendships and messages over the REST API, for specs that start past them.
import { BASE_URL, DATA_DIR, USER_AGENT, smsCodeFor, type Member } from './harness';

interface Envelope<T> {
  code: string;
  data: T;
  info: string;
}

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
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

/**
 * An operator token for the admin API, signed with the data directory's secret as imctl signs
 * it: "op." + base64url(name|expiry ms) + "." + base64url(HMAC-SHA256(secret, "operator\0" + payload)).
 */
export async function operatorToken(): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const { readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const secret = await readFile(path.join(DATA_DIR, 'secret.key'));
  const payload = Buffer.from(`e2e|${Date.now() + 60_000}`).toString('base64url');
  const mac = createHmac('sha256', secret).update('operator\0').update(payload).digest('base64url');
  return `op.${payload}.${mac}`;
}

/** An auditor token of tenant, signed as imctl audit token signs it: "au." + base64url(name|tenant|expiry ms) + "." + MAC. */
export async function auditorToken(name: string, tenant: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const { readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const secret = await readFile(path.join(DATA_DIR, 'secret.key'));
  const payload = Buffer.from(`${name}|${tenant}|${Date.now() + 600_000}`).toString('base64url');
  const mac = createHmac('sha256', secret).update('auditor\0').update(payload).digest('base64url');
  return `au.${payload}.${mac}`;
}

/** Calls an API route with a token and answers its status and envelope, refusals included. */
export async function rawCall(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; code: string; info: string }> {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as Envelope<unknown>;
  return { status: response.status, code: envelope.code, info: envelope.info };
}

/** The invitation code of a member, as its referral link carries it. */
export async function inviteCodeOverApi(member: Account): Promise<string> {
  return (await call<{ code: string }>('GET', '/v1/chat/friendInfo/getRefereeLink', member.token)).code;
}

/** Calls the admin API as an operator. */
export async function adminOverApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  return call<T>(method, path, await operatorToken(), body);
}
