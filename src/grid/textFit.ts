// Whether a cell's text fits its column. Only cells whose text may not fit are clipped (with an
// ellipsis): a clip on every cell costs Chromium a clip node and a paint chunk per cell, about a
// third of the work of a scrolling frame. The room given is the cell's content box, so a text a
// few pixels wider than measured still ends inside the cell's own padding.

/** Room kept beyond the measured width, for rounding and kerning. */
const SLACK_PX = 2;
const CACHE_LIMIT = 5000;

export type TextFit = (text: string, room: number) => boolean;

/** Never sure: every cell is clipped, as when there is no canvas (tests) or no font yet. */
export const clipAll: TextFit = () => false;

/** A fit measured with `font` (a CSS font shorthand), the cells' own. */
export function measuredFit(font: string): TextFit {
  if (typeof OffscreenCanvas === 'undefined') return clipAll;
  const ctx = new OffscreenCanvas(1, 1).getContext('2d');
  if (!ctx) return clipAll;
  ctx.font = font;
  const widths = new Map<string, number>();
  return (text, room) => {
    let w = widths.get(text);
    if (w === undefined) {
      if (widths.size >= CACHE_LIMIT) widths.clear();
      // Cells show tabular figures, which a canvas cannot: digits are measured as 0, the figure width.
      widths.set(text, (w = ctx.measureText(text.replace(/\d/g, '0')).width));
    }
    return w + SLACK_PX <= room;
  };
}

/** The font shorthand of an element's text. */
export function fontOf(el: Element): string {
  const s = getComputedStyle(el);
  return `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
}
