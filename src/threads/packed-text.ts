/**
 * Text as it crosses to a thread and back when large: its UTF-8 bytes in a buffer of their own,
 * moved rather than copied (see ThreadClient.send). A lone surrogate becomes U+FFFD, as it does
 * when the text is written to a file.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const packText = (text: string): Uint8Array => encoder.encode(text);

export const unpackText = (bytes: Uint8Array): string => decoder.decode(bytes);

/** The buffers to move with a message holding these packed texts. */
export const buffersOf = (...packed: readonly Uint8Array[]): ArrayBuffer[] =>
  packed.map((bytes) => bytes.buffer as ArrayBuffer);
