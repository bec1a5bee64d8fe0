import type { Config } from '../../config';
import type { BookType } from '../../../src/api/leads/contract';

/**
 * The download name of an export: the user's name reduced to letters, digits, spaces, dots,
 * dashes and underscores (no path, no control characters), with the format's extension.
 */
export function exportFilename(input: string | null | undefined, type: BookType, today = new Date()): string {
  const base = (input ?? '')
    .normalize('NFC')
    .replace(new RegExp(`\\.${type}$`, 'i'), '')
    .replace(/[^\p{L}\p{N} _.-]+/gu, '_')
    .replace(/^[\s._-]+|[\s._-]+$/g, '')
    .slice(0, 100);
  return `${base || `leads-${today.toISOString().slice(0, 10)}`}.${type}`;
}

/** Content-Disposition with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function attachmentHeader(filename: string): string {
  const ascii = filename
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The download link of an export: /api/exports/{token}/{filename}, absolute when PUBLIC_URL is set. */
export function downloadUrl(config: Pick<Config, 'PUBLIC_URL'>, token: string, filename: string): string {
  const path = `/api/exports/${token}/${encodeURIComponent(filename)}`;
  return config.PUBLIC_URL ? new URL(path, config.PUBLIC_URL).toString() : path;
}
