import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCallRecord, recordLine } from '../src/calls/record';
import { applyResult, applySignal, formatDuration, type ActiveCall, type CallSignal } from '../src/calls/signals';
import { previewText } from '../src/chat/preview';
import { translate, type MessageKey } from '../src/i18n';

const ME = '1000000000000000001';
const PEER = '1000000000000000002';
const OTHER = '1000000000000000003';
const en = (key: MessageKey) => translate('en', key);

function push(operationType: CallSignal['operationType'], patch: Partial<CallSignal> = {}): CallSignal {
  return { callId: 'c1', operationType, media: 'video', from: PEER, to: ME, time: 1000, ...patch };
}

const incoming: ActiveCall = { callId: 'c1', media: 'video', peerId: PEER, phase: 'incoming', startedAt: 1000, minimised: false };

describe('call signals', () => {
  it('shows an incoming call to the callee and an outgoing one to the caller', () => {
    assert.deepEqual(applySignal(null, push('Start'), ME), { call: incoming });
    const out = applySignal(null, push('Start', { from: ME, to: PEER }), ME).call;
    assert.equal(out?.phase, 'outgoing');
    assert.equal(out?.peerId, PEER);
  });

  it('answers busy to a second incoming call and keeps the first', () => {
    const effect = applySignal(incoming, push('Start', { callId: 'c2', from: OTHER }), ME);
    assert.equal(effect.call, incoming);
    assert.equal(effect.sendBusy, 'c2');
  });

  it('goes in call on Answer and closes on each ending with its outcome', () => {
    const inCall = applySignal(incoming, push('Answer', { time: 5000 }), ME).call;
    assert.equal(inCall?.phase, 'inCall');
    assert.equal(inCall?.answeredAt, 5000);
    const endings = { Reject: 'rejected', Cancel: 'cancelled', Complete: 'completed', NoAnswer: 'noAnswer', Busy: 'busy' } as const;
    for (const [op, outcome] of Object.entries(endings)) {
      assert.deepEqual(applySignal(incoming, push(op as CallSignal['operationType']), ME), { call: null, ended: outcome });
    }
  });

  it('closes silently on one’s own end', () => {
    assert.deepEqual(applySignal(incoming, push('Reject', { by: ME }), ME), { call: null });
  });

  it('ignores signals of other calls and of other members', () => {
    assert.deepEqual(applySignal(incoming, push('Cancel', { callId: 'c9' }), ME), { call: incoming });
    assert.deepEqual(applySignal(null, push('Answer'), ME), { call: null });
    assert.deepEqual(applySignal(null, push('Start', { from: OTHER, to: PEER }), ME), { call: null });
  });

  it('follows the server answers: a start to a busy member ends at once', () => {
    const ringing = applyResult(null, { callId: 'c1', from: ME, to: PEER, media: 'voice', state: 'ringing', duration: 0, startTime: 7, position: 3 }, ME);
    assert.equal(ringing.call?.phase, 'outgoing');
    assert.deepEqual(
      applyResult(null, { callId: 'c1', from: ME, to: PEER, media: 'voice', state: 'ended', outcome: 'busy', duration: 0, startTime: 7, position: 3 }, ME),
      { call: null, ended: 'busy' },
    );
  });

  it('formats durations', () => {
    assert.equal(formatDuration(0), '0:00');
    assert.equal(formatDuration(75), '1:15');
    assert.equal(formatDuration(3725), '1:02:05');
  });
});

describe('call records', () => {
  it('reads the record content and says the outcome, with the duration of a completed call', () => {
    const done = parseCallRecord('VideoCall', '{"callId":"c1","media":"video","outcome":"completed","duration":65}');
    assert.deepEqual(done, { callId: 'c1', media: 'video', outcome: 'completed', duration: 65 });
    assert.equal(recordLine(done!, en), 'Completed · 1:05');
    const rejected = parseCallRecord('VoiceCall', '{"callId":"c2","media":"voice","outcome":"rejected","duration":0}');
    assert.equal(recordLine(rejected!, en), 'Rejected');
    assert.equal(recordLine(rejected!, (key) => translate('zh_CN', key)), '已拒绝');
  });

  it('refuses what is no record', () => {
    assert.equal(parseCallRecord('Text', '{"callId":"c1","outcome":"busy"}'), null);
    assert.equal(parseCallRecord('VoiceCall', 'not json'), null);
    assert.equal(parseCallRecord('VoiceCall', '{"callId":"c1","outcome":"exploded"}'), null);
  });

  it('previews records in the conversation list', () => {
    assert.equal(previewText('VoiceCall', '{}', en), 'Voice call');
    assert.equal(previewText('VideoCall', '{}', (key) => translate('vi_VN', key)), 'Cuộc gọi video');
  });
});
