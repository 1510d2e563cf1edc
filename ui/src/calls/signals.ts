// The call a page shows, and how each signal (push 12, docs/api-calls.md) changes it. Pure: the
// socket handler and the call actions apply it and carry out what it asks for.

export type Media = 'voice' | 'video';

export type Operation = 'Start' | 'Answer' | 'Reject' | 'Cancel' | 'Complete' | 'NoAnswer' | 'Busy';

export type Outcome = 'cancelled' | 'completed' | 'rejected' | 'noAnswer' | 'busy';

/** A pushed 12: `from` is the caller and `to` the callee, whoever sent the signal (`by`). */
export interface CallSignal {
  callId: string;
  operationType: Operation;
  chatType?: string;
  media: Media;
  from: string;
  to: string;
  by?: string;
  outcome?: Outcome;
  duration?: number;
  time: number;
}

/** The server's answer to a call request. */
export interface CallResult {
  callId: string;
  from: string;
  to: string;
  media: Media;
  state: 'ringing' | 'inCall' | 'ended';
  outcome?: Outcome;
  duration: number;
  startTime: number;
  position: number;
}

export type Phase = 'outgoing' | 'incoming' | 'inCall';

export interface ActiveCall {
  callId: string;
  media: Media;
  /** the other member */
  peerId: string;
  phase: Phase;
  startedAt: number;
  answeredAt?: number;
  minimised: boolean;
}

export interface SignalEffect {
  call: ActiveCall | null;
  /** this member is in another call: tell the caller it is busy */
  sendBusy?: string;
  /** the call shown ended with this outcome, by the other member or the server */
  ended?: Outcome;
}

const endings: Partial<Record<Operation, Outcome>> = {
  Reject: 'rejected',
  Cancel: 'cancelled',
  Complete: 'completed',
  NoAnswer: 'noAnswer',
  Busy: 'busy',
};

/** The call a start shows, seen from `me`. */
export function callFrom(signal: Pick<CallSignal, 'callId' | 'media' | 'from' | 'to' | 'time'>, me: string): ActiveCall {
  const outgoing = signal.from === me;
  return {
    callId: signal.callId,
    media: signal.media,
    peerId: outgoing ? signal.to : signal.from,
    phase: outgoing ? 'outgoing' : 'incoming',
    startedAt: signal.time,
    minimised: false,
  };
}

export function applySignal(current: ActiveCall | null, signal: CallSignal, me: string): SignalEffect {
  if (!signal || !signal.callId || (signal.from !== me && signal.to !== me)) return { call: current };
  const same = current?.callId === signal.callId;
  if (signal.operationType === 'Start') {
    if (same) return { call: current };
    if (current) return signal.to === me ? { call: current, sendBusy: signal.callId } : { call: current };
    return { call: callFrom(signal, me) };
  }
  if (!same || !current) return { call: current };
  if (signal.operationType === 'Answer') {
    return { call: { ...current, phase: 'inCall', answeredAt: current.answeredAt ?? signal.time } };
  }
  const outcome = signal.outcome ?? endings[signal.operationType];
  if (!outcome) return { call: current };
  // One's own end needs no telling.
  return signal.by === me ? { call: null } : { call: null, ended: outcome };
}

/** The call after the server answered one of this page's requests. */
export function applyResult(current: ActiveCall | null, result: CallResult, me: string): SignalEffect {
  if (result.state === 'ended') {
    return current?.callId === result.callId || !current ? { call: null, ended: result.outcome } : { call: current };
  }
  if (current && current.callId !== result.callId) return { call: current };
  const base = current ?? callFrom({ ...result, time: result.startTime }, me);
  if (result.state === 'inCall') return { call: { ...base, phase: 'inCall', answeredAt: base.answeredAt ?? Date.now() } };
  return { call: base };
}

/** Seconds as m:ss, or h:mm:ss past an hour. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}
