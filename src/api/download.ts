import { call, type CallInput } from './client';
import type { Endpoint } from './endpoint';

/** The file name of a Content-Disposition header (RFC 5987 `filename*` first), if any. */
function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1].trim());
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1].trim();
}

/**
 * Fetches a file endpoint with the bearer token (tokens never travel in URLs), then hands it to
 * the browser as a download under the server's name for it, else `fallback`. Answers the name.
 */
export async function download<E extends Endpoint & { response: 'file' }>(endpoint: E, input: CallInput<E>, fallback: string): Promise<string> {
  let filename: string | undefined;
  // A 'file' endpoint answers a Blob (ResponseOf), which TypeScript cannot see through the generic.
  const blob = (await call(endpoint, {
    ...input,
    onResponse({ response }) {
      filename = dispositionFilename(response.headers.get('content-disposition'));
    },
  })) as Blob;
  const name = filename ?? fallback;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
