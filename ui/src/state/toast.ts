import { atom } from 'jotai';
import { appStore } from './store';

export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

export const toastsAtom = atom<Toast[]>([]);

let nextToastId = 1;

/** Shows a short message at the top of the page; usable from React and from plain modules. */
export function showToast(text: string, kind: ToastKind = 'info', durationMs = 3000): void {
  const id = nextToastId++;
  appStore.set(toastsAtom, (list) => [...list.filter((toast) => toast.text !== text), { id, kind, text }]);
  setTimeout(() => appStore.set(toastsAtom, (list) => list.filter((toast) => toast.id !== id)), durationMs);
}
