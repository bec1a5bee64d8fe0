import { describe, expect, it } from 'vitest';
import { formatCents } from '../../../../src/i18n/money';

describe('formatCents', () => {
  it('shows integer cents of euros in the console’s language', () => {
    // Intl separates the French groups and the sign with narrow and plain no-break spaces.
    expect(formatCents('fr', 1250).replace(/\s/g, ' ')).toBe('12,50 €');
    expect(formatCents('fr', 123456789).replace(/\s/g, ' ')).toBe('1 234 567,89 €');
    expect(formatCents('en', 1250)).toBe('€12.50');
    expect(formatCents('fr', 0).replace(/\s/g, ' ')).toBe('0,00 €');
  });
});
