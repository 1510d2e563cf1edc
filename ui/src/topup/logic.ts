// The top-up page's rules as pure functions: amounts are whole minor units (cents) on the wire.

export type OrderStatus = 'Pending' | 'Confirmed' | 'Rejected' | 'Expired' | 'Failed';

/** A line of the history: an order (type TopUp) or an operator's adjustment (status Done). */
export interface TopUpItem {
  id: string;
  type: 'TopUp' | 'Adjustment';
  requestId?: string;
  memberId: string;
  amount: number;
  note?: string;
  createTime: number;
  expireTime?: number;
  status: OrderStatus | 'Done';
  reason?: string;
  updateTime?: number;
}

/** GET /v1/member/topup/info */
export interface TopUpInfo {
  enabled: boolean;
  balance: number;
  minAmount: number;
  maxAmount: number;
  presets: number[];
  maxPending: number;
  timeoutSeconds: number;
}

/** What POST /v1/member/topup/order answers. */
export interface PlacedOrder {
  id: string;
  requestId: string;
  amount: number;
  status: OrderStatus;
  createTime: number;
  expireTime: number;
  balance: number;
  position: number;
}

/** 1234 -> "12.34"; -50 -> "-0.50". */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Reads an amount typed by the member ("12", "12.5", "12.50", "1,000") into cents, or null when it
 * is not a positive amount with at most two decimals inside [min, max].
 */
export function parseAmount(text: string, min: number, max: number): number | null {
  const cleaned = text.trim().replace(/,/g, '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents >= min && cents <= max ? cents : null;
}

/** The order the page follows: settled once its status leaves Pending. */
export function isSettled(status: TopUpItem['status']): boolean {
  return status !== 'Pending';
}

/** A fresh id for one top-up request, repeated by retries of that request only. */
export function newRequestId(random: () => string = () => crypto.randomUUID()): string {
  return random().replace(/[^A-Za-z0-9-]/g, '').slice(0, 64);
}
