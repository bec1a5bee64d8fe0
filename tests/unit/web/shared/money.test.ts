import { describe, expect, it } from 'vitest';
import { centsToInput, formatCents, parseEuros } from '../../../../src/shared/money';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('money', () => {
  it('shows cents in euros with each locale’s currency format', () => {
    expect(plain(formatCents(1250, 'fr'))).toBe('12,50 €');
    expect(plain(formatCents(123450, 'fr'))).toBe('1 234,50 €');
    expect(formatCents(1250, 'en')).toBe('€12.50');
    expect(plain(formatCents(-700, 'fr'))).toBe('-7,00 €');
  });

  it('reads euros as typed into cents; empty is none, anything else NaN', () => {
    expect(parseEuros('12,50')).toBe(1250);
    expect(parseEuros('12.5')).toBe(1250);
    expect(parseEuros(' 1 234,05 € ')).toBe(123405);
    expect(parseEuros('€7')).toBe(700);
    expect(parseEuros('')).toBeNull();
    expect(parseEuros('  ')).toBeNull();
    for (const bad of ['-1', '1,234', '12,5,0', 'dix', '1e3']) expect(parseEuros(bad)).toBeNaN();
  });

  it('gives cents back for editing in the locale’s decimal mark, and reads them back', () => {
    expect(centsToInput(1250, 'fr')).toBe('12,50');
    expect(centsToInput(1250, 'en')).toBe('12.50');
    expect(centsToInput(null, 'fr')).toBe('');
    for (const cents of [0, 1, 99, 100, 123456789]) expect(parseEuros(centsToInput(cents, 'fr'))).toBe(cents);
  });
});
