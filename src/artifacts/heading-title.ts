const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/** The body's first level-one `# ` heading outside code fences, or undefined. */
export function headingTitle(body: string): string | undefined {
  let fence: string | undefined;
  for (const line of body.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (marker) {
      fence = fence === undefined ? marker : fence === marker ? undefined : fence;
      continue;
    }
    if (fence) continue;
    const match = HEADING.exec(line.replace(/\r$/, ''));
    if (match?.[1]?.trim()) return match[1].trim();
  }
  return undefined;
}
