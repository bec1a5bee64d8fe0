import { call } from '../client';
import type { BookType } from '../leads/contract';
import { reportsApi } from './endpoints';

/** The file name of a Content-Disposition header (RFC 5987 `filename*` first), if any. */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1].trim());
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1].trim();
}

/**
 * GET /api/rapports/:id/file?format=…: the day's delivered leads as a file. Fetched with the
 * bearer token (tokens never travel in URLs), then handed to the browser as a download under the
 * server's name for it, else the report's date.
 */
export async function downloadReport(reportId: number, format: BookType, date: string): Promise<string> {
  let filename: string | undefined;
  const blob = await call(reportsApi.file, {
    params: { id: reportId },
    query: { format },
    onResponse({ response }) {
      filename = dispositionFilename(response.headers.get('content-disposition'));
    },
  });
  const name = filename ?? `${date}.${format}`;
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
