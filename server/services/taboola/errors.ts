import { AppError, notFound } from '../../errors';

/** Backstage's own words from an error body: JSON `message`, an XML `<message>`, or an HTML page's title. */
export function backstageDetail(body: string, contentType: string): string {
  const text = body.trim();
  let detail = '';
  if (/json/i.test(contentType) || text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      const found = [json.message, json.error_description, json.error, json.offending_field ? `champ ${String(json.offending_field)}` : undefined]
        .filter((v): v is string => typeof v === 'string' && v.length > 0);
      detail = found.join(' — ');
    } catch {
      // not JSON after all: read as text below
    }
  }
  if (!detail && /<message>/i.test(text)) detail = text.match(/<message>([\s\S]*?)<\/message>/i)?.[1] ?? '';
  if (!detail && /<html|<!doctype/i.test(text)) detail = text.match(/<title>([\s\S]*?)<\/title>/i)?.[1] ?? text.match(/<h1>([\s\S]*?)<\/h1>/i)?.[1] ?? '';
  if (!detail && !/^</.test(text)) detail = text;
  return detail
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** A Backstage failure as the console says it: in French, with Backstage's detail, never a secret. */
export function backstageError(status: number, body: string, contentType: string, secrets: string[]): AppError {
  let detail = backstageDetail(body, contentType);
  for (const secret of secrets) if (secret) detail = detail.split(secret).join('***');
  const suffix = detail ? ` (Taboola : ${detail})` : '';
  if (status === 404) return notFound(`Compte ou campagne introuvable chez Taboola${suffix}`);
  const message =
    status === 401 || status === 403
      ? 'Taboola refuse l’accès : vérifiez TABOOLA_CLIENT_ID, TABOOLA_CLIENT_SECRET et les droits du compte'
      : status === 429
        ? 'Taboola limite le nombre de requêtes : réessayez dans une minute'
        : status >= 500
          ? `Taboola est indisponible pour le moment (erreur ${status}), réessayez plus tard`
          : `Taboola a refusé la demande (erreur ${status})`;
  return new AppError(502, 'taboola_error', message + suffix, { taboola_status: status });
}

export const unreachable = () => new AppError(502, 'taboola_error', 'Impossible de joindre Taboola : vérifiez TABOOLA_API_URL et la connexion du serveur');
