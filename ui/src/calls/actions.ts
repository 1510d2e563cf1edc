// Call requests and pushes: each answer or signal goes through applySignal/applyResult into the one
// active call of the page. The caller's page gives up after the ring timeout (the server does too).
import { request } from '../api/http';
import { currentAuth } from '../auth/authState';
import { newUuid } from '../chat/ids';
import { t, type MessageKey } from '../i18n';
import { appStore } from '../state/store';
import { showToast } from '../state/toast';
import { applyResult, applySignal, type CallResult, type CallSignal, type Media, type Outcome, type SignalEffect } from './signals';
import { activeCallAtom } from './state';

export const RING_TIMEOUT_MS = 60_000;

export type EndOperation = 'reject' | 'cancel' | 'complete' | 'noAnswer' | 'busy';

let ringTimer: ReturnType<typeof setTimeout> | null = null;

function settle(effect: SignalEffect, notify = true): void {
  appStore.set(activeCallAtom, effect.call);
  const call = effect.call;
  if (ringTimer && (!call || call.phase !== 'outgoing')) {
    clearTimeout(ringTimer);
    ringTimer = null;
  }
  if (call?.phase === 'outgoing' && !ringTimer) {
    const callId = call.callId;
    ringTimer = setTimeout(() => {
      ringTimer = null;
      if (appStore.get(activeCallAtom)?.callId === callId) void signal('noAnswer', callId, { quiet: true });
    }, RING_TIMEOUT_MS);
  }
  if (effect.sendBusy) void signal('busy', effect.sendBusy, { apply: false, quiet: true });
  if (effect.ended && notify) showToast(t(`call.ended.${effect.ended}` as MessageKey), endedTone(effect.ended));
}

function endedTone(outcome: Outcome): 'info' | 'error' {
  return outcome === 'busy' || outcome === 'rejected' ? 'error' : 'info';
}

/** Sends a signal; `apply: false` leaves the call shown as it is (a busy answer to another call). */
async function signal(op: EndOperation | 'answer', callId: string, { apply = true, quiet = false } = {}): Promise<void> {
  try {
    const result = await request<CallResult>('POST', `/v1/message/call/${op}`, { body: { callId }, quiet });
    if (apply) settle(applyResult(appStore.get(activeCallAtom), result, currentAuth()?.user.id ?? ''), false);
  } catch {
    // A signal the server refused (the call ended meanwhile) changes nothing here; its push does.
    if (apply && op !== 'answer') settle({ call: null }, false);
  }
}

/** Rings a friend; a page already in a call does not start another. */
export async function startCall(peerId: string, media: Media, myId: string): Promise<void> {
  if (appStore.get(activeCallAtom)) return;
  try {
    const result = await request<CallResult>('POST', '/v1/message/call/start', {
      body: { uuid: newUuid(), chatType: 'Friend', to: peerId, media },
    });
    settle(applyResult(appStore.get(activeCallAtom), result, myId));
  } catch {
    // The fetch layer showed the refusal.
  }
}

export function answerCall(): Promise<void> {
  const call = appStore.get(activeCallAtom);
  return call ? signal('answer', call.callId) : Promise.resolve();
}

/** Ends the call shown: reject (incoming), cancel or noAnswer (outgoing), complete (in call). */
export function endCall(op: EndOperation): Promise<void> {
  const call = appStore.get(activeCallAtom);
  return call ? signal(op, call.callId) : Promise.resolve();
}

export function setMinimised(minimised: boolean): void {
  appStore.set(activeCallAtom, (call) => (call ? { ...call, minimised } : call));
}

/** A pushed 12. */
export function onCallSignal(data: CallSignal, myId: string): void {
  settle(applySignal(appStore.get(activeCallAtom), data, myId));
}
