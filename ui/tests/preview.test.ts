import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isKnownType, previewText } from '../src/chat/preview';
import { translate } from '../src/i18n';

const en = (key: Parameters<typeof translate>[1]) => translate('en', key);

describe('message types this client shows', () => {
  it('knows the text and media types, and tells an unknown one apart', () => {
    for (const type of ['Text', 'AtText', 'Reply', 'Event', 'Picture', 'File', 'VideoMsg', 'VoiceMsg', 'Forward', 'ShareContact', 'VoiceCall', 'VideoCall']) {
      assert.equal(isKnownType(type), true, type);
    }
    assert.equal(isKnownType('RedPacket'), false);
  });

  it('previews an unknown type as a placeholder, not as its raw content', () => {
    assert.equal(previewText('RedPacket', '{"amount":1}', en), '[message]');
  });
});
