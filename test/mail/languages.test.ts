import { parseMailFacts } from '../../core/mail-facts';
import { classifyMail } from '../../domain/mail-classify';
import { DOMAINS, ORIGINAL_ID, TOKEN } from './corpus';

/**
 * Free-text notices and out-of-office subjects in the seven languages of domain/mail-wording.ts,
 * and the rule that a system sender is never a human reply. Each sentence is a plain translation
 * of what MTAs write in English (the real-message corpus has few non-English notices).
 */
const BOUNCE_TO = `bounce+${TOKEN}@${DOMAINS.bounce}`;
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;

async function classify(o: { from: string; subject: string; body: string; mailFrom?: string; to?: string; headers?: string }) {
  const raw = `From: ${o.from}\r\nTo: ${o.to ?? BOUNCE_TO}\r\nSubject: ${o.subject}\r\n${o.headers ?? ''}Content-Type: text/plain; charset=utf-8\r\n\r\n${o.body}\r\n`;
  return classifyMail(await parseMailFacts(raw, { mailFrom: o.mailFrom ?? '', recipients: [o.to ?? BOUNCE_TO] }), DOMAINS).class;
}

const NOTICES: Array<[string, string, string, 'hard' | 'soft']> = [
  ['de', 'Unzustellbar: Hello Ada', 'Ihre Nachricht konnte nicht zugestellt werden.\nada@example.de: Empfänger unbekannt', 'hard'],
  ['de', 'Unzustellbar: Hello Ada', 'Ihre Nachricht konnte nicht zugestellt werden.\nada@example.de: Postfach ist voll', 'soft'],
  ['fr', 'Non remis : Hello Ada', "Votre message n'a pas pu être remis.\nada@example.fr : l'adresse n'existe pas", 'hard'],
  ['fr', 'Non remis : Hello Ada', "Votre message n'a pas pu être remis.\nada@example.fr : boîte aux lettres pleine", 'soft'],
  ['es', 'No entregado: Hello Ada', 'Su mensaje no pudo ser entregado.\nada@example.es: usuario desconocido', 'hard'],
  ['es', 'No entregado: Hello Ada', 'Su mensaje no pudo ser entregado.\nada@example.es: buzón lleno', 'soft'],
  ['pt', 'Não entregue: Hello Ada', 'Não foi possível entregar a sua mensagem.\nada@example.pt: o endereço não existe', 'hard'],
  ['pt', 'Não entregue: Hello Ada', 'Não foi possível entregar a sua mensagem.\nada@example.pt: caixa postal cheia', 'soft'],
  ['it', 'Non recapitato: Hello Ada', 'Impossibile recapitare il messaggio.\nada@example.it: utente sconosciuto', 'hard'],
  ['it', 'Non recapitato: Hello Ada', 'Impossibile recapitare il messaggio.\nada@example.it: casella piena', 'soft'],
  ['nl', 'Onbestelbaar: Hello Ada', 'Uw bericht kon niet worden afgeleverd.\nada@example.nl: onbekende ontvanger', 'hard'],
  ['nl', 'Onbestelbaar: Hello Ada', 'Uw bericht kon niet worden afgeleverd.\nada@example.nl: mailbox is vol', 'soft'],
  ['en', 'Undeliverable: Hello Ada', 'Your message could not be delivered.\nada@example.org: no such user', 'hard'],
  ['en', 'Undeliverable: Hello Ada', 'Your message could not be delivered.\nada@example.org: mailbox full', 'soft'],
];

test.each(NOTICES)('%s notice from a mailer-daemon: %s / %s is a %s bounce', async (_lang, subject, body, type) => {
  expect(await classify({ from: 'MAILER-DAEMON@mx.example.net', subject, body })).toMatchObject({ kind: 'bounce', type });
});

test.each(NOTICES.filter((n) => n[3] === 'hard'))(
  '%s notice with a bounce subject from an unknown gateway address is still a bounce',
  async (_l, subject, body) => {
    expect(
      await classify({ from: 'gateway@mx.example.net', mailFrom: 'gateway@mx.example.net', subject, body, to: REPLY_TO }),
    ).toMatchObject({
      kind: 'bounce',
    });
  },
);

test.each([
  ['de', 'Abwesenheitsnotiz: Hello Ada'],
  ['fr', 'Réponse automatique : Hello Ada'],
  ['es', 'Respuesta automática: Hello Ada'],
  ['pt', 'Resposta automática: Hello Ada'],
  ['it', 'Risposta automatica: Hello Ada'],
  ['nl', 'Automatisch antwoord: Hello Ada'],
  ['en', 'Out of Office: Hello Ada'],
])('%s out-of-office subject without any header: %s', async (_lang, subject) => {
  const c = await classify({
    from: 'ada@example.org',
    mailFrom: 'ada@example.org',
    subject,
    body: 'Back soon.',
    to: REPLY_TO,
    headers: `In-Reply-To: ${ORIGINAL_ID}\r\n`,
  });
  expect(c).toMatchObject({ kind: 'auto_reply', reason: 'subject' });
});

test('a delay notice in German is a warning, not a bounce', async () => {
  const c = await classify({
    from: 'MAILER-DAEMON@mx.example.de',
    subject: 'Zustellung verzögert: Hello Ada',
    body: 'Ihre Nachricht konnte noch nicht zugestellt werden, die Zustellung ist verzögert.',
  });
  expect(c.kind).toBe('warning');
});

test.each([
  ['the null sender', { from: 'someone@example.org', mailFrom: '' }],
  ['a mailer-daemon', { from: 'MAILER-DAEMON@mx.example.org', mailFrom: 'MAILER-DAEMON@mx.example.org' }],
  ['a postmaster', { from: 'postmaster@example.org', mailFrom: 'postmaster@example.org' }],
  ['a no-reply address', { from: 'no-reply@sns.example.com', mailFrom: 'no-reply@sns.example.com' }],
  ["a mailing list's robot", { from: 'news-owner@lists.example.org', mailFrom: 'news-bounces+x=y@lists.example.org' }],
])('a message from %s that is neither a notice nor an auto-reply is unknown, never a reply', async (_who, o) => {
  const c = await classify({ ...o, subject: 'Re: Hello Ada', body: 'Thanks!', to: REPLY_TO, headers: `In-Reply-To: ${ORIGINAL_ID}\r\n` });
  expect(c).toMatchObject({ kind: 'unknown' });
  expect(c.kind === 'unknown' && c.reason).toBeTruthy();
});

test('the same message from a real sender to the reply address is a reply', async () => {
  const c = await classify({
    from: 'ada@example.org',
    mailFrom: 'ada@example.org',
    subject: 'Re: Hello Ada',
    body: 'Thanks!',
    to: REPLY_TO,
    headers: `In-Reply-To: ${ORIGINAL_ID}\r\n`,
  });
  expect(c).toEqual({ kind: 'reply' });
});
