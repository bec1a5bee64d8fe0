/**
 * Money (issue 26): integer cents of euros, HT. Every screen shows amounts with `formatCents`
 * (the locale's currency format: '12,50 €' in French) and reads typed amounts with
 * `parseEuros`; the server writes its statement files with the same formatter.
 */
const formats = new Map<string, Intl.NumberFormat>();

/** '12,50 €' (fr), '€12.50' (en): cents shown in euros with the locale's currency format. */
export function formatCents(cents: number, locale: string): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' });
    formats.set(locale, format);
  }
  return format.format(cents / 100);
}

/**
 * Euros as typed → cents: '12,50', '12.5', '1 234,50 €', '€12' (spaces, the euro sign and a
 * comma or point before at most two decimals); '' → null (no amount); anything else → NaN, which
 * the contracts refuse with their message.
 */
export function parseEuros(text: string): number | null {
  const s = text.replace(/[\s\u00a0\u202f€]/g, '');
  if (s === '') return null;
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(s);
  if (!match) return NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as a form shows them to edit: '12,50' (fr), '12.50' (en); null → ''. */
export function centsToInput(cents: number | null, locale: string): string {
  if (cents === null) return '';
  const decimal = locale.startsWith('fr') || locale.startsWith('es') ? ',' : '.';
  return (cents / 100).toFixed(2).replace('.', decimal);
}
