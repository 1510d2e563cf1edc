// The server IDs this browser knows (spec accounts.md section 3, local storage "tenant id and list")
// and the tenant checker shared by the login and registration pages (section 5).
import { ApiError, request } from '../api/http';
import type { SystemInfo } from '../api/types';
import { readJSON, writeJSON } from '../state/localStore';
import { DEFAULT_TENANT } from './validation';

export function knownTenants(): string[] {
  const stored = readJSON<unknown>('tenants');
  const list = Array.isArray(stored) ? stored.filter((code): code is string => typeof code === 'string' && !!code) : [];
  return list.includes(DEFAULT_TENANT) ? list : [DEFAULT_TENANT, ...list];
}

function rememberTenant(code: string): string[] {
  const list = knownTenants();
  const next = list.includes(code) ? list : [...list, code];
  writeJSON('tenants', next);
  return next;
}

/** What the checker answered; a refusal carries the server's text in the page's language. */
export type TenantCheck =
  | { outcome: 'added'; tenants: string[]; system: SystemInfo }
  | { outcome: 'exists'; info: string }
  | { outcome: 'invalid'; info: string };

/**
 * Asks GET /member/tenantConfig/tenantChecker about a server ID, sending the ones known here;
 * an accepted one joins the list. Its three answers: 'added successfully' (200), 'already exists'
 * (409) and 'tenant number invalid' (400).
 */
export async function checkTenant(code: string): Promise<TenantCheck> {
  const query = new URLSearchParams({ tenantFlag: code, tenantList: knownTenants().join(',') });
  let system: SystemInfo;
  try {
    system = await request<SystemInfo>('GET', `/v1/member/tenantConfig/tenantChecker?${query}`, { quiet: true });
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 400)) throw error;
    return { outcome: error.status === 409 ? 'exists' : 'invalid', info: error.message };
  }
  return { outcome: 'added', tenants: rememberTenant(code), system };
}
