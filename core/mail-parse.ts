import { MailParser, type AddressObject, type MailParserData } from 'mailparser';

/**
 * A message parsed by mailparser's MailParser: what core/mail-facts.ts reads of it, and nothing
 * more. simpleParser gives the same values (the parse is the same: test/mail/parse.test.ts compares
 * them on the whole corpus) but keeps every attachment whole in memory; here only the parts the
 * classifier reads (`keep`) are kept, the others are read past, so a message with a large
 * attachment costs no more memory than one without.
 */
export interface ParsedParts<Header extends string = string> {
  /** The top-level header lines as mailsplit gives them (names lower-cased, folded lines kept). */
  headerLines: ReadonlyArray<{ key: string; line: string }>;
  /** The first value of each header `keepHeader` took, unfolded and trimmed. */
  headers: Partial<Record<Header, string>>;
  /** The text parts joined (mailparser's text, HTML-only mail rendered as text); '' when none. */
  text: string;
  /** The HTML parts joined; '' when none. */
  html: string;
  subject: string;
  from: AddressObject | undefined;
  inReplyTo: string | undefined;
  references: string | string[] | undefined;
  /** The attachments `keep` took, whole; the others are not kept. */
  attachments: Array<{ contentType: string; content: Buffer }>;
}

/** mailparser's options as the facts use them: no HTML made of the text, no links rewritten (the mail bench and tests give simpleParser the same). */
export const PARSE_OPTIONS = { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true };

const stringOr = (v: unknown, otherwise: string): string => (typeof v === 'string' ? v : otherwise);

/**
 * The first value of each header line `keepHeader` takes, unfolded and trimmed (mailsplit gives
 * the names lower-cased). Read when mailsplit hands the header block over: the lines are then in
 * the processor's cache, and after the body is read they no longer are (docs/throughput.md).
 */
function headerValues<Header extends string>(
  lines: ReadonlyArray<{ key: string; line: string }>,
  keepHeader: (name: string) => name is Header,
): Partial<Record<Header, string>> {
  const headers: Partial<Record<Header, string>> = {};
  for (const { key, line } of lines) {
    // Received and the like are skipped; of a repeated header, the first is kept.
    if (!keepHeader(key) || headers[key] !== undefined) continue;
    headers[key] = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
  }
  return headers;
}

/** No header kept. */
const noHeader = (_name: string): _name is never => false;

/** Parse raw RFC 5322 bytes; rejects on what mailparser cannot parse. */
export function parseMail<Header extends string = never>(
  raw: Buffer | string,
  keep: (contentType: string) => boolean,
  keepHeader: (name: string) => name is Header = noHeader,
): Promise<ParsedParts<Header>> {
  return new Promise((resolve, reject) => {
    const out: ParsedParts<Header> = {
      headerLines: [],
      headers: {},
      text: '',
      html: '',
      subject: '',
      from: undefined,
      inReplyTo: undefined,
      references: undefined,
      attachments: [],
    };
    let headers: Map<string, unknown> | undefined;
    const parser = new MailParser(PARSE_OPTIONS);
    parser.on('error', reject);
    parser.on('headers', (h: Map<string, unknown>) => {
      headers = h;
      out.headerLines = parser.headerLines || [];
      out.headers = headerValues(out.headerLines, keepHeader);
    });
    parser.on('data', (data: MailParserData) => {
      if (data.type === 'text') {
        out.text = stringOr(data.text, out.text);
        out.html = stringOr(data.html, out.html);
        return;
      }
      // mailparser waits for each attachment to be read and released before it goes on.
      const { content, contentType } = data;
      content.on('error', reject);
      if (keep(contentType)) {
        const chunks: Buffer[] = [];
        content.on('data', (chunk: Buffer) => chunks.push(chunk));
        content.on('end', () => out.attachments.push({ contentType, content: Buffer.concat(chunks) }));
      } else {
        content.resume();
      }
      content.on('end', () => data.release());
    });
    parser.on('end', () => {
      if (headers) {
        out.subject = stringOr(headers.get('subject'), '');
        out.from = headers.get('from') as AddressObject | undefined;
        out.inReplyTo = headers.get('in-reply-to') as string | undefined;
        out.references = headers.get('references') as string | string[] | undefined;
      }
      resolve(out);
    });
    parser.end(typeof raw === 'string' ? Buffer.from(raw) : raw);
  });
}
