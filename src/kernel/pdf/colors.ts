/** Colour arithmetic on `#rrggbb` strings, for design hints and the text drawn on them. */

/** `#RGB` or `#RRGGBB` (any case, surrounding spaces allowed) as `#rrggbb`; anything else null. */
export function normalizeHex(value: string): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (match === null) return null;
  const hex = match[1]!.toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((d) => d + d).join('')}` : `#${hex}`;
}

/** Relative luminance above ~0.55: dark text reads better than white on it. */
export function isLight(hex: string): boolean {
  const channel = (offset: number): number => {
    const v = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5) > 0.55;
}

/**
 * `from` moved a `share` (0..1) of the way towards `to`: a muted tone of a text colour on its
 * background, opaque so every viewer and printer shows the same thing (no transparency groups).
 */
export function mixHex(from: string, to: string, share: number): string {
  const part = (hex: string, offset: number): number => Number.parseInt(hex.slice(offset, offset + 2), 16);
  let out = '#';
  for (const offset of [1, 3, 5]) {
    const value = Math.round(part(from, offset) + (part(to, offset) - part(from, offset)) * share);
    out += value.toString(16).padStart(2, '0');
  }
  return out;
}
