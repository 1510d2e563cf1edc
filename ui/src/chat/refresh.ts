// Reads one's own writes: refetch a list with `after=<position>` and put the answer in the swr cache.
import { mutate } from 'swr';
import { getFetcher } from '../api/http';
import { withAfter } from '../api/keys';

export function refreshAfter(key: string, position: number): Promise<unknown> {
  return mutate(key, getFetcher(withAfter(key, position)), { revalidate: false });
}
