// Calls of the top-up page (docs/api-accounts.md, Top-up).
import { request } from '../api/http';
import type { PlacedOrder } from './logic';

export const topUpKeys = {
  info: '/v1/member/topup/info',
  list: '/v1/member/topup/list?pageSize=50',
  order(id: string): string {
    return `/v1/member/topup/order?${new URLSearchParams({ id })}`;
  },
};

export function placeOrder(requestId: string, amount: number): Promise<PlacedOrder> {
  return request<PlacedOrder>('POST', '/v1/member/topup/order', { body: { requestId, amount }, quiet: true });
}
