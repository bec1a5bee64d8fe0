// The replay's clock (issue 27): computed from its hour's, it must tell every minute as parisClock does, across both daylight-saving changes.
import { describe, expect, it } from 'vitest';
import { parisClock } from '../../../../../server/services/delivery/paris-time';
import { parisClockAt } from '../../../../../server/services/delivery/replay';

describe('parisClockAt', () => {
  it('is parisClock at every minute of the March and October changes and of a month’s turn, seconds aside', () => {
    for (const start of ['2026-03-28T20:00:00Z', '2026-10-24T20:00:00Z', '2026-11-30T20:00:00Z'])
      for (let m = 0; m < 12 * 60; m++) {
        const at = Date.parse(start) + m * 60_000 + 17_000;
        expect(parisClockAt(at)).toEqual(parisClock(new Date(at)));
      }
  });
});
