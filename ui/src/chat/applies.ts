import type { Apply } from '../api/types';

/** Friend requests others sent me that wait for my answer. */
export function pendingReceived(records: Pick<Apply, 'direction' | 'status'>[] | undefined): number {
  return records?.filter((apply) => apply.direction === 'received' && apply.status === 'pending').length ?? 0;
}
