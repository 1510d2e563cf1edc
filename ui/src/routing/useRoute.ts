import { useEffect, useState } from 'react';
import { parseHash, type Route } from './guard';

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    window.addEventListener('popstate', onChange);
    return () => {
      window.removeEventListener('hashchange', onChange);
      window.removeEventListener('popstate', onChange);
    };
  }, []);
  return route;
}

export function goTo(hash: string): void {
  window.location.hash = hash;
}

function chatHash(peerId: string): string {
  return `#/historyPage/${encodeURIComponent(peerId)}`;
}

/** The history state of an entry the app added for an open chat. */
interface ChatEntry {
  chatEntry: true;
}

function isChatEntry(state: unknown): state is ChatEntry {
  return typeof state === 'object' && state !== null && (state as ChatEntry).chatEntry === true;
}

function announce(): void {
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/**
 * Puts the open chat in the address: a new history entry when coming from a list or screen, the
 * same entry when switching from one chat to another.
 */
export function showChatEntry(peerId: string, replace: boolean): void {
  if (replace) window.history.replaceState(window.history.state, '', chatHash(peerId));
  else window.history.pushState({ chatEntry: true } satisfies ChatEntry, '', chatHash(peerId));
  announce();
}

/** Leaves the chat's address: back over the entry the app added, or to the home when it came by a link. */
export function leaveChatEntry(): void {
  if (isChatEntry(window.history.state)) window.history.back();
  else replaceWithHome();
}

/** Puts the home's address in place of the current one, for a screen closed inside the app. */
export function replaceWithHome(): void {
  window.history.replaceState(null, '', '#/');
  announce();
}
