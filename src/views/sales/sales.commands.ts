/**
 * Returning a sale ('Retourner la vente'): the lead view's sales panel and the report of a day's
 * sales pass the sale as `{ sale }`; the dialog asks the reason, then 'sales.returnSend' sends it.
 */
import { toApiError } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { reportsKey } from '../../api/reports/queries';
import type { SaleReturnRequest } from '../../api/sales/contract';
import { salesKey } from '../../api/sales/queries';
import { returnSale } from '../../api/sales/requests';
import { defineCommand } from '../../commands/registry';
import { openSaleReturn, saleReturn, type ReturnTarget } from '../../ui/saleReturn';

const section = 'sales';

defineCommand<{ sale: ReturnTarget }>({
  id: 'sales.return',
  title: 'sales.return',
  section,
  requires: 'admin',
  // Needs its sale: reached from the sale's own button.
  palette: false,
  run: (_ctx, args) => openSaleReturn(args.sale),
});

/** After the dialog closed and react-aria gave the focus back to the opener's button (gone now): the opener's fallback. */
const afterRestore = (focus: () => void) => requestAnimationFrame(() => requestAnimationFrame(focus));

defineCommand<SaleReturnRequest & { saleId: number }>({
  id: 'sales.returnSend',
  title: 'sales.return.ok',
  section,
  requires: 'admin',
  palette: false,
  run: async (ctx, { saleId, ...body }) => {
    const sale = saleReturn.sale;
    saleReturn.busy = true;
    saleReturn.error = null;
    try {
      await returnSale(saleId, body);
    } catch (error) {
      // Refused (out of the window, twice, the rate): said in the dialog, which stays open.
      const refused = toApiError(error);
      const fields = refused.body?.errors as Record<string, string> | undefined;
      saleReturn.error = fields ? Object.values(fields).join(' ; ') : refused.message;
      return;
    } finally {
      saleReturn.busy = false;
    }
    saleReturn.sale = null;
    afterRestore(() => sale?.fallback?.()?.focus());
    ctx.toast.success(ctx.t('sales.return.done', { id: String(sale?.lead_id ?? '') }));
    await Promise.all([queryClient.invalidateQueries({ queryKey: salesKey }), queryClient.invalidateQueries({ queryKey: reportsKey })]);
  },
});
