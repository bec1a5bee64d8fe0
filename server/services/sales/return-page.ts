import { createHash } from 'node:crypto';
import { RETURN_COMMENT_MAX, returnReason, type ReturnReason } from '../../../src/api/sales/contract';
import type { Queryable } from '../../db/connection';

/** The reasons as the customer reads them (the page is French, as the mails). */
export const reasonLabels: Record<ReturnReason, string> = {
  wrong_number: 'Faux numéro',
  unreachable: 'Injoignable',
  duplicate: 'Doublon',
  out_of_area: 'Hors zone',
  already_customer: 'Déjà client',
  other: 'Autre',
};

/** What the page shows of a sale: what the customer was sent already, nothing more. */
export interface ReturnPageSale {
  lead_id: number;
  name: string;
  landing: string;
  sold_at: string;
}

export async function returnPageSale(db: Queryable, saleId: number): Promise<ReturnPageSale | undefined> {
  const { rows } = await db.query<ReturnPageSale>(
    `SELECT l.id AS lead_id, ld.name AS landing, trim(concat_ws(' ', l.data->>'prenom', l.data->>'nom')) AS name,
            to_char(s.sold_at AT TIME ZONE 'Europe/Paris', 'DD/MM/YYYY à HH24:MI') AS sold_at
       FROM lead_sales s JOIN leads l ON l.id = s.lead_id JOIN landings ld ON ld.id = l.landing_id WHERE s.id = $1`,
    [saleId],
  );
  return rows[0];
}

const css = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.4rem;margin:0 0 1rem}
fieldset{border:1px solid #c5cad3;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}legend{font-weight:600;padding:0 .25rem}
label{display:block;padding:.35rem 0}input[type=radio]{width:1.2rem;height:1.2rem;vertical-align:-.2rem;margin-right:.4rem}textarea{width:100%;box-sizing:border-box;font:inherit;min-height:5rem}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:6px;background:#0b57d0;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
.alert{border-left:4px solid #b3261e;background:#fdecea;padding:.5rem 1rem}.done{border-left:4px solid #146c2e;background:#e6f4ea;padding:.5rem 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}`;

/**
 * The page's own Content-Security-Policy: the app's, with its one inline style allowed by hash
 * (no script at all; the form posts to the page itself).
 */
export const returnPageCsp = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ReturnPageState {
  sale?: ReturnPageSale;
  /** A refusal or an error, shown as an alert (the form stays when it can be sent again). */
  message?: string;
  /** Whether the form is offered. */
  form: boolean;
  done?: boolean;
  reason?: string;
  comment?: string;
}

/** The page of a return link, in French, without script: the sale, then the form, a refusal or the confirmation. */
export function returnPage(state: ReturnPageState): string {
  const { sale } = state;
  const facts = sale
    ? `<dl><dt>Lead</dt><dd>n° ${sale.lead_id} (${escape(sale.landing)})</dd>${sale.name ? `<dt>Nom</dt><dd>${escape(sale.name)}</dd>` : ''}<dt>Reçu le</dt><dd>${sale.sold_at}</dd></dl>`
    : '';
  const notice = state.done
    ? `<p class="done" role="status">Le lead est retourné : il ne vous sera plus facturé.</p>`
    : state.message
      ? `<p class="alert" role="alert">${escape(state.message)}</p>`
      : '';
  const options = returnReason.options
    .map((r) => `<label><input type="radio" name="reason" value="${r}" required${state.reason === r ? ' checked' : ''}> ${reasonLabels[r]}</label>`)
    .join('');
  const form = state.form
    ? `<form method="post"><fieldset><legend>Raison du retour</legend>${options}</fieldset>
<label for="comment">Commentaire (obligatoire pour « Autre », ${RETURN_COMMENT_MAX} caractères au plus)</label>
<textarea id="comment" name="comment" maxlength="${RETURN_COMMENT_MAX}">${escape(state.comment ?? '')}</textarea>
<p><button type="submit">Retourner ce lead</button></p></form>`
    : '';
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Retour d'un lead</title><style>${css}</style></head>
<body><main><h1>Retour d'un lead</h1>${facts}${notice}${form}</main></body></html>`;
}
