import { describe, expect, it } from 'vitest';
import { languages, loadMessages, makeIntl } from '../../../../../src/i18n';
import { tabCountText } from '../../../../../src/views/leads/TabCount';

describe('tabCountText', () => {
  it('writes a count exactly up to 9,999, compact from 10,000 on: every count fits the badge, in every language', async () => {
    const fr = makeIntl('fr', await loadMessages('fr'));
    expect([0, 12, 9_999, 12_345, 123_456, 1_234_567].map((n) => tabCountText(fr, n))).toEqual([
      '0',
      '12',
      '9\u202f999',
      '12\u00a0k',
      '123\u00a0k',
      '1,2\u00a0M',
    ]);
    for (const language of languages) {
      const intl = makeIntl(language, await loadMessages(language));
      for (const n of [9_999, 99_999, 999_999, 9_999_999]) expect(tabCountText(intl, n).length).toBeLessThanOrEqual(7);
    }
  });
});
