/**
 * The real-message corpus (test/mail/corpus/README.md): labels in labels.json, keyed by source file.
 * `flufl/` and `talon/` files are read from the PyPI source distributions that `node scripts/bootstrap.js`
 * unpacks into ${XDG_CACHE_HOME:-~/.cache}/fss-tools/mail-corpus (or MAIL_CORPUS_DIR); `sisimai/` and
 * `written/` files are committed beside this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mailCorpusDir } from '../../../scripts/tool-paths';

/** Keep in sync with MAIL_CORPUS_SDISTS in scripts/bootstrap.js. */
export const SDISTS = { flufl: 'flufl_bounce-6.0.0/tests/data', talon: 'talon-1.4.4/tests/fixtures' } as const;

export interface Label {
  class: 'bounce' | 'warning' | 'auto_reply' | 'reply' | 'complaint' | 'unknown';
  type?: 'hard' | 'soft' | 'block';
  /** A block's reason (domain/mail-block.ts). */
  block?: 'reputation' | 'authentication' | 'content' | 'policy';
  mta?: string;
  basis: string;
}

export { mailCorpusDir };

export const LABELS = JSON.parse(fs.readFileSync(path.join(__dirname, 'labels.json'), 'utf8')) as Record<string, Label>;

/** Where a labelled file is on disk. */
export function corpusPath(key: string): string {
  const [source, ...rest] = key.split('/');
  if (source === 'flufl' || source === 'talon') return path.join(mailCorpusDir(), SDISTS[source], ...rest);
  return path.join(__dirname, source, ...rest);
}

/** Every labelled message's bytes; throws, naming the fix, when the cached sources are missing. */
export function loadCorpus(): Array<{ key: string; label: Label; raw: Buffer }> {
  const missing = Object.keys(LABELS).filter((k) => !fs.existsSync(corpusPath(k)));
  if (missing.length) {
    throw new Error(`${missing.length} corpus files are missing (first: ${corpusPath(missing[0])}). Run \`node scripts/bootstrap.js\`.`);
  }
  return Object.entries(LABELS).map(([key, label]) => ({ key, label, raw: fs.readFileSync(corpusPath(key)) }));
}

/**
 * The envelope a message arrives with: its own Return-Path as MAIL FROM (`<>` is the null sender),
 * else its From address; always to our reply address, the harder case (a bounce must be recognised
 * by what it says, not by the address it was sent to).
 */
export function envelopeOf(raw: Buffer, replyAddress: string): { mailFrom: string; recipients: string[] } {
  const head = raw
    .subarray(0, Math.min(raw.length, 64 * 1024))
    .toString('latin1')
    .split(/\r?\n\r?\n/)[0];
  const returnPath = /^return-path:\s*<?([^>\r\n]*)>?/im.exec(head)?.[1].trim();
  const from = /^from:.*?<?([^\s<>"]+@[^\s<>"]+?)>?\s*$/im.exec(head)?.[1] ?? '';
  return { mailFrom: returnPath ?? from, recipients: [replyAddress] };
}
