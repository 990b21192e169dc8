// Minimal types for mailparser (it ships none and @types/mailparser is not installed).
declare module 'mailparser' {
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
  export function simpleParser(source: string | Buffer, options?: Record<string, unknown>): Promise<ParsedMail>;
}
