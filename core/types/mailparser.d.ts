// Minimal types for mailparser (it ships none and @types/mailparser is not installed).
declare module 'mailparser' {
  import { Transform } from 'node:stream';
  export interface AddressObject {
    text: string;
    value?: Array<{ address?: string; name: string }>;
  }
  export interface Attachment {
    contentType: string;
    content: Buffer;
    filename?: string;
  }
  export interface ParsedMail {
    subject?: string;
    text?: string;
    html?: string | false;
    date?: Date;
    messageId?: string;
    inReplyTo?: string;
    references?: string | string[];
    headers: Map<string, unknown>;
    headerLines?: Array<{ key: string; line: string }>;
    attachments?: Attachment[];
    to?: AddressObject;
    from?: AddressObject;
    replyTo?: AddressObject;
  }
  /** What a MailParser stream gives: the text parts once, at the end, and each attachment as it comes (read it, then release it). */
  export type MailParserData =
    | { type: 'text'; text?: string; html?: string; textAsHtml?: string }
    | { type: 'attachment'; contentType: string; content: NodeJS.ReadableStream; release: () => void; filename?: string };
  export class MailParser extends Transform {
    constructor(options?: Record<string, unknown>);
    headerLines: Array<{ key: string; line: string }> | false;
  }
  export function simpleParser(source: string | Buffer, options?: Record<string, unknown>): Promise<ParsedMail>;
}
