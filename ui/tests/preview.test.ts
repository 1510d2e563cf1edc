import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isKnownType, previewText } from '../src/chat/preview';
import { FILE_PATH_PREFIX } from '../src/chat/upload';
import { translate } from '../src/i18n';

const en = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('en', key, params);

describe('message types this client shows', () => {
  it('knows the text and media types, and tells an unknown one apart', () => {
    for (const type of ['Text', 'AtText', 'Reply', 'Event', 'Picture', 'File', 'VideoMsg', 'VoiceMsg', 'Forward', 'ShareContact', 'VoiceCall', 'VideoCall']) {
      assert.equal(isKnownType(type), true, type);
    }
    assert.equal(isKnownType('RedPacket'), false);
  });

  it('previews an unknown type as a placeholder, not as its raw content', () => {
    assert.equal(previewText('RedPacket', '{"amount":1}', en), 'Message');
  });

  it('previews media, files and forwards as people say them, in each language', () => {
    const file = (fileName: string, contentType: string) =>
      JSON.stringify({ filePath: `${FILE_PATH_PREFIX}ab/cd`, fileName, size: 10, contentType });
    assert.equal(previewText('Picture', file('a.png', 'image/png'), en), 'Photo');
    assert.equal(previewText('File', file('report.pdf', 'application/pdf'), en), 'File: report.pdf');
    assert.equal(previewText('Forward', 'see you at 8', en), 'Forwarded: see you at 8');
    assert.equal(previewText('Forward', file('a.png', 'image/png'), en), 'Forwarded: Photo');
    assert.equal(previewText('VoiceMsg', file('v.webm', 'audio/webm'), en), 'Voice message');
    assert.equal(previewText('File', file('报告.pdf', 'application/pdf'), (key, params) => translate('zh_CN', key, params)), '文件：报告.pdf');
    assert.equal(previewText('Picture', '', (key, params) => translate('vi_VN', key, params)), 'Ảnh');
  });
});
