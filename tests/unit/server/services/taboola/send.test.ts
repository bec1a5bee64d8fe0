import { describe, expect, it } from 'vitest';
import { widens } from '../../../../../server/services/taboola/send';

const include = (...codes: string[]) => ({ type: 'INCLUDE' as const, codes });

describe('widens: a send reaching postal codes the campaign does not reach today', () => {
  it('ALL after a list widens; nothing widens ALL', () => {
    expect(widens(include('30000'), { type: 'ALL', codes: [] })).toBe(true);
    expect(widens({ type: 'EXCLUDE', codes: ['30000'] }, { type: 'ALL', codes: [] })).toBe(true);
    expect(widens({ type: 'ALL', codes: [] }, { type: 'ALL', codes: [] })).toBe(false);
    expect(widens({ type: 'ALL', codes: [] }, include('30000'))).toBe(false);
  });

  it('a list widens an INCLUDE only with a code it lacks, whatever its length', () => {
    expect(widens(include('30000', '30100', '30200'), include('30000', '30100'))).toBe(false);
    expect(widens(include('30000', '30100'), include('30100', '30000'))).toBe(false);
    expect(widens(include('30000', '30100', '30200'), include('01000'))).toBe(true);
  });

  it('a list widens an EXCLUDE when it holds a code the EXCLUDE leaves out', () => {
    expect(widens({ type: 'EXCLUDE', codes: ['75001'] }, include('30000'))).toBe(false);
    expect(widens({ type: 'EXCLUDE', codes: ['75001'] }, include('30000', '75001'))).toBe(true);
  });
});
