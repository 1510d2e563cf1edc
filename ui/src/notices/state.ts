// The unread notice counts, written by the count fetch and by pushes (44) from outside React.
import { atom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import useSWR, { mutate } from 'swr';
import { authAtom } from '../auth/authState';
import { appStore } from '../state/store';
import { noticeKeys } from './api';
import { NO_COUNTS, newerCounts, type NoticeCounts } from './logic';

export const noticeCountsAtom = atom<NoticeCounts>(NO_COUNTS);

/**
 * Takes counts from a push or a fetch; a push also becomes the cached fetch, so that a view
 * mounting later does not take the older fetched counts back.
 */
export function takeNoticeCounts(next: NoticeCounts | null | undefined, pushed = false): void {
  appStore.set(noticeCountsAtom, (held) => newerCounts(held, next));
  if (pushed) void mutate(noticeKeys.count, appStore.get(noticeCountsAtom), { revalidate: false });
}

/** The member's unread notice counts: fetched once signed in, then kept by pushes (44). */
export function useNoticeCounts(): NoticeCounts {
  const signedIn = useAtomValue(authAtom) !== null;
  const fetched = useSWR<NoticeCounts>(signedIn ? noticeKeys.count : null);
  useEffect(() => {
    if (fetched.data) takeNoticeCounts(fetched.data);
  }, [fetched.data]);
  return useAtomValue(noticeCountsAtom);
}
