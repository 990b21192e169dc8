import { parseMailFacts } from '../../core/mail-facts';
import { classifyMail } from '../../domain/mail-classify';
import { DOMAINS, TOKEN } from './corpus';
import { dsnMessage } from './dsn-message';

/**
 * A full mailbox is soft in every wording real servers use, in the seven languages of
 * domain/mail-wording.ts, under a class-5 status too (issue 42 item 5; docs/sequences.md "Hard or soft").
 */
const BOUNCE_TO = `bounce+${TOKEN}@${DOMAINS.bounce}`;

/** Wordings seen in real notices (English) and their plain translations. */
const FULL: Array<[string, string]> = [
  ['en', 'account is full (quota exceeded)'],
  ['en', 'The user has exceeded its disk space limit'],
  ['en', 'not enough space on the disk'],
  ['en', 'Not enough storage space in the mailbox'],
  ['en', 'user is over quota'],
  ['en', 'Mailbox full'],
  ['en', "The recipient's inbox is full and can't accept messages now"],
  ['en', 'Insufficient system storage'],
  ['en', 'the user has exceeded their storage limit'],
  ['en', 'maildir has overflowed'],
  ['en', 'mailbox is full: retry timeout exceeded'],
  ['en', 'disk quota exceeded'],
  ['de', 'Das Postfach ist voll'],
  ['de', 'Der Speicherplatz des Empfängers ist erschöpft'],
  ['de', 'Nicht genügend Speicher im Postfach'],
  ['fr', 'La boîte aux lettres est pleine'],
  ['fr', 'Espace disque insuffisant'],
  ['fr', "Le destinataire n'a plus d'espace disponible"],
  ['es', 'El buzón está lleno'],
  ['es', 'Espacio insuficiente en el buzón'],
  ['es', 'Cuota excedida'],
  ['pt', 'A caixa postal está cheia'],
  ['pt', 'Espaço insuficiente na caixa de correio'],
  ['pt', 'Cota excedida'],
  ['it', 'La casella di posta è piena'],
  ['it', 'Spazio insufficiente nella casella'],
  ['nl', 'De mailbox is vol'],
  ['nl', 'Het postvak is vol'],
  ['nl', 'Onvoldoende ruimte in de mailbox'],
];

/** The status lines a server puts before the wording: class 5, specific or not. */
const CLASS_5 = ['550', '554', '550 5.0.0', '552 5.2.2', '550 5.7.1', '550 5.1.1'];

async function notice(line: string) {
  const raw = `From: MAILER-DAEMON@mx.example.net\r\nTo: ${BOUNCE_TO}\r\nSubject: Undeliverable: Hello Ada\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nYour message could not be delivered.\r\nada@example.org: ${line}\r\n`;
  return classifyMail(await parseMailFacts(raw, { mailFrom: '', recipients: [BOUNCE_TO] }), DOMAINS).class;
}

async function dsn(status: string, diagnostic: string) {
  const raw = dsnMessage({ to: BOUNCE_TO, status, diagnostic });
  return classifyMail(await parseMailFacts(raw, { mailFrom: '', recipients: [BOUNCE_TO] }), DOMAINS).class;
}

test.each(FULL.flatMap(([lang, words]) => CLASS_5.map((code) => [lang, code, words] as const)))(
  '%s notice: "%s %s" is a soft bounce',
  async (_lang, code, words) => {
    expect(await notice(`${code} ${words}`)).toMatchObject({ kind: 'bounce', type: 'soft' });
  },
);

test.each(FULL)('%s DSN with Status 5.1.1 and the diagnostic "552 %s" is a soft bounce', async (_lang, words) => {
  expect(await dsn('5.1.1', `552 ${words}`)).toMatchObject({ kind: 'bounce', type: 'soft' });
});

test('a notice about two recipients, one unknown and one full, stays hard (the words say an address is dead)', async () => {
  expect(await notice('550 5.2.1 <ada@example.org>... User Unknown\r\n550 5.2.2 <bob@example.org>... Mailbox Full')).toMatchObject({
    kind: 'bounce',
    type: 'hard',
  });
});

test('a full mailbox is not confused with a dead one: "user unknown" under 550 stays hard', async () => {
  expect(await notice('550 5.1.1 User unknown')).toMatchObject({ kind: 'bounce', type: 'hard' });
  expect(await dsn('5.1.1', '550 5.1.1 The email account that you tried to reach does not exist')).toMatchObject({ type: 'hard' });
});
