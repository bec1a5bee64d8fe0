/** Integer cents of euros in the console's language ('12,50 €' in French), as every amount is shown. */
export function formatCents(locale: string, cents: number): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100);
}
