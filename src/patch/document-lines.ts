/**
 * A document as lines whose terminators are kept apart from their text. Hunks are matched
 * against the text only, which is how a CRLF document matches an LF patch, and the
 * terminators are put back on the way out, which is how the document keeps its own endings.
 */
export interface DocumentLines {
  texts: string[];
  endings: string[];
  /** The ending most lines use; given to added lines. */
  ending: '\n' | '\r\n';
  endsWithNewline: boolean;
}

export interface OutputLine {
  text: string;
  /** The line's own terminator when it comes from the document; undefined for added lines. */
  ending?: string;
}

export function splitDocument(text: string): DocumentLines {
  const texts: string[] = [];
  const endings: string[] = [];
  const pattern = /\r?\n/g;
  let from = 0;
  let crlf = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    texts.push(text.slice(from, match.index));
    endings.push(match[0]);
    if (match[0] === '\r\n') crlf++;
    from = match.index + match[0].length;
  }
  if (from < text.length) {
    texts.push(text.slice(from));
    endings.push('');
  }
  return {
    texts,
    endings,
    ending: crlf * 2 > endings.filter(Boolean).length ? '\r\n' : '\n',
    endsWithNewline: text === '' || from === text.length,
  };
}

/** Every line but the last gets a terminator; the last one ends as the original document did. */
export function joinDocument(lines: OutputLine[], original: DocumentLines): string {
  return lines
    .map(({ text, ending }, index) => {
      const last = index === lines.length - 1;
      if (last && !original.endsWithNewline) return text;
      return text + (ending || original.ending);
    })
    .join('');
}
