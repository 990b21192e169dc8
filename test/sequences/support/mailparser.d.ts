// Minimal types for mailparser (it ships none and @types/mailparser is not installed).
declare module 'mailparser' {
  export interface ParsedMail {
    subject?: string;
    text?: string;
    html?: string | false;
    date?: Date;
    messageId?: string;
    headers: Map<string, unknown>;
    to?: { text: string };
    from?: { text: string };
    replyTo?: { text: string; value: Array<{ address?: string; name: string }> };
  }
  export function simpleParser(source: string | Buffer): Promise<ParsedMail>;
}
