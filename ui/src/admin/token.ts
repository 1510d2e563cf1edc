// The admin page's credential: an operator token (op.) or an auditor token (au.), as imctl prints
// them, kept for this tab only.

export type AdminRole = 'operator' | 'auditor';

export interface AdminCredential {
  token: string;
  role: AdminRole;
  /** the name the token was issued to */
  name: string;
  /** an auditor's tenant; '' for operators, who name a tenant per call */
  tenant: string;
  /** when the token stops being good, ms */
  until: number;
}

const KEY = 'eventchat.adminToken';

function decodePayload(payload: string): string | null {
  try {
    const b64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Reads what a token says about itself (the server still checks its signature on every call):
 * operator payloads are name|until, auditor payloads name|tenant|until.
 */
export function parseAdminToken(raw: string): AdminCredential | null {
  const token = raw.trim();
  const role: AdminRole | null = token.startsWith('op.') ? 'operator' : token.startsWith('au.') ? 'auditor' : null;
  if (!role) return null;
  const payload = decodePayload(token.slice(3).split('.', 1)[0] ?? '');
  if (!payload) return null;
  const parts = payload.split('|');
  const until = Number(parts[parts.length - 1]);
  if (!Number.isFinite(until) || !parts[0]) return null;
  if (role === 'operator') return parts.length === 2 ? { token, role, name: parts[0], tenant: '', until } : null;
  return parts.length === 3 && parts[1] ? { token, role, name: parts[0], tenant: parts[1], until } : null;
}

export function storedCredential(now = Date.now()): AdminCredential | null {
  try {
    const credential = parseAdminToken(globalThis.sessionStorage?.getItem(KEY) ?? '');
    return credential && credential.until > now ? credential : null;
  } catch {
    return null;
  }
}

export function storeCredential(credential: AdminCredential | null): void {
  try {
    if (credential) globalThis.sessionStorage?.setItem(KEY, credential.token);
    else globalThis.sessionStorage?.removeItem(KEY);
  } catch {
    // storage disabled: the credential lives as long as the page
  }
}
