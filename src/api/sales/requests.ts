import { call } from '../client';
import type { SaleReturnRequest } from './contract';
import { salesApi } from './endpoints';

/** POST /api/sales/:id/return: the sale returned, credited, its lead offered to the other rules. */
export const returnSale = (saleId: number, body: SaleReturnRequest) => call(salesApi.return, { params: { id: saleId }, body });
