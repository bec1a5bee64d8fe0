// The state of the 'Retourner la vente' dialog (ReturnSaleDialog.tsx, its commands in views/sales), opened from the lead view's sales panel and from the report of a day's sales.
import { proxy, ref } from 'valtio';
import type { ReturnReason } from '../api/sales/contract';

/** The sale the dialog returns, as its opener shows it; `fallback`: where the focus goes once the sale is returned (its button is gone). */
export interface ReturnTarget {
  id: number;
  lead_id: number;
  customer: string;
  fallback?: () => HTMLElement | null;
}

export const saleReturn = proxy({
  sale: null as ReturnTarget | null,
  reason: null as ReturnReason | null,
  comment: '',
  busy: false,
  /** The server's refusal (French, as every API message), shown in the dialog. */
  error: null as string | null,
});

export function openSaleReturn(sale: ReturnTarget) {
  Object.assign(saleReturn, { sale: ref(sale), reason: null, comment: '', busy: false, error: null });
}
