import { parseMailFacts } from '../../core/mail-facts';
import { classifyMail, type MailClass } from '../../domain/mail-classify';
import { DOMAINS, TOKEN } from './corpus';
import { envelopeOf, LABELS, loadCorpus, type Label } from './corpus/sources';

/**
 * The classifier against real messages (test/mail/corpus/README.md): every label was decided by
 * reading the message; the test prints the confusion table.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;
const expected = (l: Label) => (l.class === 'bounce' ? `bounce/${l.type}${l.block ? `:${l.block}` : ''}` : l.class);
const got = (c: MailClass) => (c.kind === 'bounce' ? `bounce/${c.type}${c.block ? `:${c.block}` : ''}` : c.kind);

test('the corpus has 150+ bounces from 10+ kinds of MTA, 20+ auto-replies and 20+ human replies', () => {
  const labels = Object.values(LABELS);
  const bounces = labels.filter((l) => l.class === 'bounce');
  expect(bounces.length).toBeGreaterThanOrEqual(150);
  expect(new Set(bounces.map((l) => l.mta).filter((m) => m && !m.startsWith('various'))).size).toBeGreaterThanOrEqual(10);
  expect(labels.filter((l) => l.class === 'auto_reply').length).toBeGreaterThanOrEqual(20);
  expect(labels.filter((l) => l.class === 'reply').length).toBeGreaterThanOrEqual(20);
  expect(new Set(bounces.map((l) => l.type))).toEqual(new Set(['hard', 'soft', 'block']));
});

test('every real message is classed as labelled: no bounce read as a reply, no reply as a bounce, 98% right', async () => {
  const rows: Array<{ key: string; want: string; got: string; detail: string }> = [];
  for (const m of loadCorpus()) {
    const c = classifyMail(await parseMailFacts(m.raw, envelopeOf(m.raw, REPLY_TO)), DOMAINS).class;
    const detail = c.kind === 'bounce' ? `${c.status ?? '-'} ${c.diagnostic ?? ''}` : c.kind === 'unknown' ? c.reason : '';
    rows.push({ key: m.key, want: expected(m.label), got: got(c), detail: detail.slice(0, 90) });
  }
  const classes = [...new Set([...rows.map((r) => r.want), ...rows.map((r) => r.got)])].sort();
  const pad = Math.max(...classes.map((c) => c.length)) + 2;
  const table = [['expected \\ got', ...classes].map((c) => c.padEnd(pad)).join('')];
  for (const want of classes.filter((c) => rows.some((r) => r.want === c))) {
    const n = (g: string) => String(rows.filter((r) => r.want === want && r.got === g).length);
    table.push([want, ...classes.map(n)].map((c) => c.padEnd(pad)).join(''));
  }
  const wrong = rows.filter((r) => r.want !== r.got);
  const right = rows.length - wrong.length;
  process.stdout.write(
    `\nConfusion table (${rows.length} messages, ${right} right = ${((100 * right) / rows.length).toFixed(1)}%):\n${table.join('\n')}\n` +
      `${wrong.map((r) => `  ${r.key}: expected ${r.want}, got ${r.got} ${r.detail}`).join('\n')}\n`,
  );
  const bounceAsReply = rows.filter((r) => /^(bounce|warning)/.test(r.want) && r.got === 'reply');
  const replyAsBounce = rows.filter((r) => r.want === 'reply' && /^(bounce|warning)/.test(r.got));
  expect(bounceAsReply).toEqual([]);
  expect(replyAsBounce).toEqual([]);
  expect(right / rows.length).toBeGreaterThanOrEqual(0.98);
});
