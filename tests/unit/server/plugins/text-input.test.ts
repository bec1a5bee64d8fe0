import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { unstorableField } from '../../../../server/plugins/text-input';

describe('unstorableField', () => {
  it('names the first NUL or lone surrogate, keys included, as parse() names fields', () => {
    expect(unstorableField({ a: [{ b: 'ok' }, { b: 'x\u0000' }] })).toBe('a.1.b');
    expect(unstorableField({ 'k\ud800': 1 })).toBe('k\ufffd');
    expect(unstorableField('\udc00')).toBe('_');
    expect(unstorableField({ emoji: '😀', accents: 'Zoé', nested: { n: 1, t: true, z: null } })).toBeUndefined();
  });

  it('leaves alone what is not parsed text (a multipart stream, a buffer), cycles included', () => {
    const stream = new PassThrough();
    expect(unstorableField({ file: stream, data: Buffer.from('a\u0000b') })).toBeUndefined();
  });
});
