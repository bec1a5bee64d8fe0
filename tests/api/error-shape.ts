// What every 4xx answer of the API must be (docs/decisions.md §5): `{ error, message }`, a stable code and
// a message in French a user can read. The harness checks each 4xx it receives with it.

/** Words of English error messages (Fastify's, a library's) that no French message holds. */
const english =
  /\b(the|is|are|not|invalid|must|should|required|error|request|body|unexpected|expected|missing|found|cannot|failed|too|large|reach|limit|file|unsupported|please|payload|unauthorized|forbidden)\b/i;

/**
 * The message's own words: what follows ' : ' (French typography: 'Colonne inconnue : x'), paths
 * and quoted text may repeat what the client sent.
 */
const ownWords = (message: string) =>
  message
    .split(' : ')[0]
    .replace(/\S*\/\S*/g, '')
    .replace(/'[^']*'|"[^"]*"|«[^»]*»/g, '');

/** Why `body` is not a French `{ error, message }`, or undefined when it is one. */
export function frenchErrorProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not a JSON object';
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error !== 'string' || !/^[a-z][a-z_]*$/.test(error)) return `error is not a code: ${JSON.stringify(error)}`;
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  if (english.test(ownWords(message))) return `message in English: ${message}`;
  return undefined;
}
