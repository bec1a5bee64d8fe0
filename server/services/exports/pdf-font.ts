import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';

// PDF's built-in fonts only know Latin-1: 'Ŝ', 'ł' or 'Ж' came out as other letters. DejaVu Sans
// covers Latin, Greek and Cyrillic; pdfkit embeds only the glyphs a file uses.
const fontFile = (weight: 400 | 700) =>
  join(dirname(createRequire(import.meta.url).resolve('@fontsource/dejavu-sans')), `files/dejavu-sans-latin-${weight}-normal.woff`);

/**
 * The font's tables inflated back into a plain TrueType file (WOFF 1.0 is that file, table by
 * table zlib-compressed). Given the WOFF itself, pdfkit took 0.9 s to make a one-lead PDF; from
 * this, 30 ms.
 */
function sfntOf(woff: Buffer): Buffer {
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const [tag, offset, compressed, length, checksum] = [0, 4, 8, 12, 16].map((d) => woff.readUInt32BE(at + d));
    const raw = woff.subarray(offset, offset + compressed);
    return { tag, checksum, data: compressed < length ? inflateSync(raw) : raw };
  });
  const power = 2 ** Math.floor(Math.log2(numTables));
  const head = Buffer.alloc(12 + numTables * 16);
  head.writeUInt32BE(woff.readUInt32BE(4), 0); // sfnt version
  head.writeUInt16BE(numTables, 4);
  head.writeUInt16BE(power * 16, 6);
  head.writeUInt16BE(Math.log2(power), 8);
  head.writeUInt16BE(numTables * 16 - power * 16, 10);
  const parts = [head];
  let offset = head.length;
  tables.forEach(({ tag, checksum, data }, i) => {
    const padded = Buffer.alloc((data.length + 3) & ~3);
    data.copy(padded);
    [tag, checksum, offset, data.length].forEach((v, k) => head.writeUInt32BE(v, 12 + i * 16 + k * 4));
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

const fonts = new Map<400 | 700, Buffer>();
/** DejaVu Sans (700: bold) as TrueType, read once. */
export function pdfFont(weight: 400 | 700 = 400): Buffer {
  let font = fonts.get(weight);
  if (!font) fonts.set(weight, (font = sfntOf(readFileSync(fontFile(weight)))));
  return font;
}
