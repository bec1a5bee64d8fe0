/**
 * An XLSX is a zip. Before SheetJS inflates anything, the central directory says how many
 * entries there are and how big each gets once inflated: a 300 kB file can declare 300 MB.
 */
export const ZIP_LIMITS = { maxEntries: 2_000, maxUncompressed: 400 * 1024 * 1024, maxRatio: 200 };

export type ZipVerdict = { ok: true; entries: number; uncompressed: number } | { ok: false; reason: 'not_zip' | 'too_many_entries' | 'too_big' | 'ratio' };

export function checkZip(bytes: Uint8Array, limits = ZIP_LIMITS): ZipVerdict {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: signature 0x06054b50 within the last 64 kB + 22 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { ok: false, reason: 'not_zip' };
  const entries = view.getUint16(eocd + 10, true);
  const dirSize = view.getUint32(eocd + 12, true);
  const dirOffset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || dirOffset === 0xffffffff) return { ok: false, reason: 'too_big' }; // zip64: far beyond any sane sheet
  if (entries > limits.maxEntries) return { ok: false, reason: 'too_many_entries' };
  if (dirOffset + dirSize > bytes.length) return { ok: false, reason: 'not_zip' };
  let uncompressed = 0;
  let compressed = 0;
  let p = dirOffset;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) return { ok: false, reason: 'not_zip' };
    compressed += view.getUint32(p + 20, true);
    uncompressed += view.getUint32(p + 24, true);
    p += 46 + view.getUint16(p + 28, true) + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  if (uncompressed > limits.maxUncompressed) return { ok: false, reason: 'too_big' };
  if (compressed > 0 && uncompressed / compressed > limits.maxRatio && uncompressed > 10 * 1024 * 1024) return { ok: false, reason: 'ratio' };
  return { ok: true, entries, uncompressed };
}

export const isZip = (bytes: Uint8Array) => bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
