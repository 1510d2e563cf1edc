import useSWR from 'swr';
import { getMessagesByIds } from '../api/endpoints';
import type { Message } from '../api/types';

/** A replied-to message that is not in the loaded timeline; null once the server says it is gone. */
export function useParentMessage(id: string | null) {
  return useSWR<Message | null>(
    id ? ['getMessageByIds', id] : null,
    () => getMessagesByIds([id as string]).then((list) => list.find((item) => item.id === id) ?? null),
    { revalidateOnFocus: false, dedupingInterval: 10_000 },
  );
}
