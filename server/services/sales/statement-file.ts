import { PassThrough } from 'node:stream';
import type { Statement, StatementFormat } from '../../../src/api/customers/contract';
import { formatCents } from '../../../src/shared/money';
import type { Queryable } from '../../db/connection';
import { audit } from '../audit';
import type { CellValue, SheetColumn } from '../exports/cells';
import { attachmentHeader, exportFilename } from '../exports/filenames';
import { contentTypes, sheetWriter } from '../exports/writers';
import { customerStatement } from './statement';

const columns: SheetColumn[] = [
  { label: 'Date', kind: 'date' },
  { label: 'Règle', kind: 'text' },
  { label: 'Canal', kind: 'text' },
  { label: 'Leads', kind: 'number' },
  { label: 'Retournés', kind: 'number' },
  { label: 'Montant HT', kind: 'text' },
  { label: 'Avoirs HT', kind: 'text' },
];

const channels = { live: 'Livraison', export: 'Export' } as const;
const euros = (cents: number) => formatCents(cents, 'fr');

/** 'novembre 2026'. */
const monthLabel = (month: string) =>
  new Intl.DateTimeFormat('fr', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

/** The statement's rows as a customer reads them: its lines, then the totals and what is due. */
export function statementRows(s: Statement): CellValue[][] {
  const sum = (key: 'leads' | 'returned') => s.lines.reduce((n, l) => n + l[key], 0);
  return [
    ...s.lines.map((l) => [l.date, l.rule?.name ?? '', channels[l.channel], l.leads, l.returned, euros(l.amount_cents), euros(l.credits_cents)]),
    [null, 'Total du mois', null, sum('leads'), sum('returned'), euros(s.total_cents), euros(s.credits_cents)],
    [null, 'Net à payer HT (ventes moins avoirs)', null, null, null, euros(s.due_cents), null],
  ];
}

/**
 * A customer's statement of a month as a document to send it: pdf (A4 portrait, 40 lines a page,
 * each page headed by the customer and the month), xlsx or csv, amounts in euros written the
 * French way; the download is logged.
 */
export async function statementFile(db: Queryable, userId: number, customerId: number, month: string, format: StatementFormat) {
  const statement = await customerStatement(db, customerId, month);
  const filename = exportFilename(`Relevé ${statement.customer.name.normalize('NFC').slice(0, 70)} ${monthLabel(month)}`, format);
  await audit(db, {
    actorId: userId,
    action: 'download',
    entity: 'statement',
    count: statement.lines.length,
    details: { customer_id: customerId, month, format },
  });
  const body = new PassThrough();
  const writer = sheetWriter(format, body, columns, filename, { layout: 'portrait', perPage: 40 });
  void (async () => {
    await writer.rows(statementRows(statement));
    await writer.end();
    body.end();
  })().catch((err: unknown) => body.destroy(err as Error));
  return {
    headers: { 'content-type': contentTypes[format], 'content-disposition': attachmentHeader(filename), 'cache-control': 'no-store' },
    body,
  };
}
