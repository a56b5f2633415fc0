/**
 * Naming and finding the characters that must not enter a title or a document, so that a
 * refusal can say exactly which character it was and where. Pure; imports nothing.
 */

const C0_NAMES = [
  'NUL',
  'SOH',
  'STX',
  'ETX',
  'EOT',
  'ENQ',
  'ACK',
  'BEL',
  'BS',
  'TAB',
  'LF',
  'VT',
  'FF',
  'CR',
  'SO',
  'SI',
  'DLE',
  'DC1',
  'DC2',
  'DC3',
  'DC4',
  'NAK',
  'SYN',
  'ETB',
  'CAN',
  'EM',
  'SUB',
  'ESC',
  'FS',
  'GS',
  'RS',
  'US',
];

const hex = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

export const isC0Control = (codePoint: number): boolean => codePoint < 0x20;

export const isSurrogate = (codePoint: number): boolean => codePoint >= 0xd800 && codePoint <= 0xdfff;

/** Control characters a document may not hold: the C0 set but tab (line breaks are the lines' own business). */
export const isDocumentControl = (codePoint: number): boolean => isC0Control(codePoint) && codePoint !== 0x09;

const BIDI_NAMES: Readonly<Record<number, string>> = {
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
};

/**
 * The bidirectional embedding, override and isolate characters (U+202A-U+202E, U+2066-U+2069):
 * in a title or a commit subject they make text read in another order than it is stored.
 */
export const isBidiControl = (codePoint: number): boolean => BIDI_NAMES[codePoint] !== undefined;

/**
 * "a line break (U+000A LF)", "a control character (U+0000 NUL)", "a lone surrogate (U+D800)",
 * "a bidirectional formatting character (U+202E RIGHT-TO-LEFT OVERRIDE)".
 */
export function describeCharacter(codePoint: number): string {
  if (codePoint === 0x0a || codePoint === 0x0d) return `a line break (${hex(codePoint)} ${C0_NAMES[codePoint]})`;
  if (codePoint === 0x2028 || codePoint === 0x2029 || codePoint === 0x85) return `a line break (${hex(codePoint)})`;
  if (codePoint === 0x09) return `a tab (${hex(codePoint)})`;
  if (isC0Control(codePoint)) return `a control character (${hex(codePoint)} ${C0_NAMES[codePoint]})`;
  if (codePoint === 0x7f || (codePoint >= 0x80 && codePoint <= 0x9f)) return `a control character (${hex(codePoint)})`;
  if (isSurrogate(codePoint)) return `a lone surrogate (${hex(codePoint)}, half of a UTF-16 pair)`;
  if (isBidiControl(codePoint))
    return `a bidirectional formatting character (${hex(codePoint)} ${BIDI_NAMES[codePoint]})`;
  return `the character ${hex(codePoint)}`;
}

export interface FoundCharacter {
  readonly codePoint: number;
  /** 1-based position counted in code points (characters), not UTF-16 units. */
  readonly position: number;
}

/**
 * The first character of `text` for which `refused` holds, or undefined. Iterating a string
 * yields a lone surrogate as a code point of its own, so `isSurrogate` finds exactly those.
 */
export function findCharacter(text: string, refused: (codePoint: number) => boolean): FoundCharacter | undefined {
  let position = 0;
  for (const character of text) {
    position++;
    const codePoint = character.codePointAt(0)!;
    if (refused(codePoint)) return { codePoint, position };
  }
  return undefined;
}
