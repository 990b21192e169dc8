/**
 * WebVTT (w3.org/TR/webvtt1) to plain text for the notes provider: the header, NOTE, STYLE and
 * REGION blocks, cue identifiers and timing lines go; a voice span `<v Ada>Hello` becomes
 * `Ada: Hello`; other tags are dropped. Text that is not WebVTT is answered as it is.
 */
export function vttToText(input: string): string {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!/^WEBVTT(?:[ \t].*)?(?:\n|$)/.test(text)) return text.trim();
  const blocks = text.split(/\n{2,}/).slice(1);
  const lines: string[] = [];
  for (const block of blocks) {
    const rows = block.split('\n').filter((r) => r.trim() !== '');
    if (!rows.length || /^(NOTE|STYLE|REGION)\b/.test(rows[0])) continue;
    const timing = rows.findIndex((r) => r.includes('-->'));
    if (timing < 0) continue;
    for (const row of rows.slice(timing + 1)) {
      const voice = /^<v(?:\.[^ >]*)?\s+([^>]+)>/.exec(row);
      const said = row
        .replace(/<[^>]*>/g, '')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .trim();
      if (said) lines.push(voice ? `${voice[1].trim()}: ${said}` : said);
    }
  }
  return lines.join('\n');
}

/**
 * Cut a text into parts of at most `max` characters, at line ends where there are any (a line
 * longer than `max` is cut inside).
 */
export function splitIntoParts(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const parts: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    for (let i = 0; i < Math.max(line.length, 1); i += max) {
      const piece = line.slice(i, i + max);
      if (current && current.length + 1 + piece.length > max) {
        parts.push(current);
        current = '';
      }
      current = current ? `${current}\n${piece}` : piece;
    }
  }
  if (current) parts.push(current);
  return parts;
}
