import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../../../src/api/events/sse';

describe('SseParser', () => {
  it('reads id, event and data, skipping the heartbeat comment', () => {
    const p = new SseParser();
    expect(p.feed(': heartbeat\n\nid: 7\nevent: lead.created\ndata: {"a":1}\n\n')).toEqual([{ id: '7', event: 'lead.created', data: '{"a":1}' }]);
  });

  it('joins data lines and keeps a message cut anywhere, even inside a CRLF', () => {
    const text = 'id: 1\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\nid: 2\r\ndata: c\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const p = new SseParser();
      const got = [...p.feed(text.slice(0, cut)), ...p.feed(text.slice(cut))];
      expect(got, `cut at ${cut}`).toEqual([
        { id: '1', event: 'x', data: 'a\nb' },
        { id: '2', event: 'message', data: 'c' },
      ]);
    }
  });

  it('waits for the blank line before yielding, and keeps the last id for a message without one', () => {
    const p = new SseParser();
    expect(p.feed('id: 4\ndata: one')).toEqual([]);
    expect(p.feed('\n\n')).toEqual([{ id: '4', event: 'message', data: 'one' }]);
    expect(p.feed('data:two\r\r')).toEqual([{ id: '4', event: 'message', data: 'two' }]);
  });

  it('ignores unknown fields and a blank line with no field', () => {
    const p = new SseParser();
    expect(p.feed('retry: 10\n\nfoo: bar\n\n\n')).toEqual([]);
  });
});
