import { AppError, notFound } from '../../errors';

/** Backstage's own words from an error body: JSON `message`, an XML `<message>`, or an HTML page's title. */
export function backstageDetail(body: string, contentType: string): string {
  const text = body.trim();
  let detail = '';
  if (/json/i.test(contentType) || text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      const found = [json.message, json.error_description, json.error, json.offending_field ? `champ ${String(json.offending_field)}` : undefined].filter(
        (v): v is string => typeof v === 'string' && v.length > 0,
      );
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

/**
 * A text without any of the secrets, as written, as the token request's form encoding wrote
 * them (`+` for a space, `%2B`…) or as a JSON string holds them, so that no echo shows any of it.
 */
function scrub(text: string, secrets: string[]): string {
  for (const secret of secrets) {
    if (!secret) continue;
    const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)]);
    for (const form of [...forms].sort((a, b) => b.length - a.length)) text = text.split(form).join('***');
  }
  return text;
}

/** A Backstage failure as the console says it: in French, with Backstage's detail, never a secret. */
export function backstageError(status: number, body: string, contentType: string, secrets: string[]): AppError {
  // Scrubbed before the detail is cut to its length (a cut secret would no longer match), and after.
  const detail = scrub(backstageDetail(scrub(body, secrets), contentType), secrets);
  const suffix = detail ? ` (Taboola : ${detail})` : '';
  if (status === 404) return notFound(`Compte ou campagne introuvable chez Taboola${suffix}`);
  const message =
    status === 401 || status === 403
      ? "Taboola refuse l'accès : vérifiez TABOOLA_CLIENT_ID, TABOOLA_CLIENT_SECRET et les droits du compte"
      : status === 429
        ? 'Taboola limite le nombre de requêtes : réessayez dans une minute'
        : status >= 500
          ? `Taboola est indisponible pour le moment (erreur ${status}), réessayez plus tard`
          : `Taboola a refusé la demande (erreur ${status})`;
  return new AppError(502, 'taboola_error', message + suffix, { taboola_status: status });
}

export const unreachable = () => new AppError(502, 'taboola_error', 'Impossible de joindre Taboola : vérifiez TABOOLA_API_URL et la connexion du serveur');
