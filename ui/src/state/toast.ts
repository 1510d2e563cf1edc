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

const CARRIED = 'eventchat.toast';

/**
 * Keeps a toast for the page about to load (a navigation to another path reloads the app, which
 * would drop it); showCarriedToast shows it there.
 */
export function carryToast(text: string, kind: ToastKind = 'info', durationMs = 3000): void {
  try {
    globalThis.sessionStorage?.setItem(CARRIED, JSON.stringify({ text, kind, durationMs }));
  } catch {
    // storage disabled: the toast is lost with the page, as it would be anyway
  }
}

/** Shows, once, the toast the previous page carried over. */
export function showCarriedToast(): void {
  try {
    const raw = globalThis.sessionStorage?.getItem(CARRIED);
    if (!raw) return;
    globalThis.sessionStorage.removeItem(CARRIED);
    const { text, kind, durationMs } = JSON.parse(raw) as { text: string; kind: ToastKind; durationMs?: number };
    if (typeof text === 'string' && text) showToast(text, kind, typeof durationMs === 'number' ? durationMs : undefined);
  } catch {
    // a broken entry is dropped
  }
}

/** Shows a short message at the top of the page; usable from React and from plain modules. */
export function showToast(text: string, kind: ToastKind = 'info', durationMs = 3000): void {
  const id = nextToastId++;
  appStore.set(toastsAtom, (list) => [...list.filter((toast) => toast.text !== text), { id, kind, text }]);
  setTimeout(() => appStore.set(toastsAtom, (list) => list.filter((toast) => toast.id !== id)), durationMs);
}
