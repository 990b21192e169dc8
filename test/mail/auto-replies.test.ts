import { parseMailFacts } from '../../core/mail-facts';
import { classifyMail } from '../../domain/mail-classify';
import { LANGUAGES } from '../../domain/mail-wording';
import { DOMAINS, ORIGINAL_ID, TOKEN } from './corpus';

/**
 * Out-of-office in more shapes (issue 42 item 6): the subjects and opening sentences of automatic
 * answers in the 24 official EU languages, Japanese, Chinese, Korean and Russian
 * (domain/mail-words/auto-reply.json), Lotus Notes/Domino subjects, and challenge-response
 * filters. Each comes from a real-looking person, answers our message (In-Reply-To) and carries no
 * auto-reply header: none of them may be a human reply.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;

async function classify(o: { subject: string; body: string; headers?: string }) {
  const raw = `From: Ada <ada@example.org>\r\nTo: ${REPLY_TO}\r\nSubject: ${o.subject}\r\nIn-Reply-To: ${ORIGINAL_ID}\r\n${o.headers ?? ''}Content-Type: text/plain; charset=utf-8\r\n\r\n${o.body}\r\n`;
  return classifyMail(await parseMailFacts(raw, { mailFrom: 'ada@example.org', recipients: [REPLY_TO] }), DOMAINS).class;
}

/** One real-world subject and one opening sentence per language. */
const EXAMPLES: Record<string, { subject: string; body: string }> = {
  bg: { subject: 'Автоматичен отговор: Hello Ada', body: 'Това е автоматичен отговор. В момента съм извън офиса.' },
  hr: { subject: 'Automatski odgovor: Hello Ada', body: 'Ovo je automatski odgovor. Trenutno sam izvan ureda.' },
  cs: { subject: 'Automatická odpověď: Hello Ada', body: 'Toto je automatická odpověď. Jsem mimo kancelář do pondělí.' },
  da: { subject: 'Automatisk svar: Hello Ada', body: 'Dette er et automatisk svar. Jeg er ikke på kontoret.' },
  nl: { subject: 'Automatisch antwoord: Hello Ada', body: 'Dit is een automatisch antwoord. Ik ben afwezig tot maandag.' },
  en: { subject: 'Automatic reply: Hello Ada', body: 'I am currently out of the office with limited access to email.' },
  et: { subject: 'Automaatne vastus: Hello Ada', body: 'See on automaatne vastus. Olen puhkusel kuni esmaspäevani.' },
  fi: { subject: 'Automaattinen vastaus: Hello Ada', body: 'Tämä on automaattinen vastaus. Olen poissa toimistolta.' },
  fr: { subject: 'Réponse automatique : Hello Ada', body: 'Ceci est une réponse automatique. Je suis absent jusqu’à lundi.' },
  de: { subject: 'Automatische Antwort: Hello Ada', body: 'Ich bin derzeit nicht im Büro und ab Montag wieder erreichbar.' },
  el: { subject: 'Αυτόματη απάντηση: Hello Ada', body: 'Αυτή είναι μια αυτόματη απάντηση. Είμαι εκτός γραφείου.' },
  hu: { subject: 'Automatikus válasz: Hello Ada', body: 'Ez egy automatikus válasz. Házon kívül vagyok hétfőig.' },
  ga: { subject: 'Freagra uathoibríoch: Hello Ada', body: 'Is freagra uathoibríoch é seo. Táim as an oifig.' },
  it: { subject: 'Risposta automatica: Hello Ada', body: 'Questa è una risposta automatica. Sono fuori ufficio.' },
  lv: { subject: 'Automātiskā atbilde: Hello Ada', body: 'Šī ir automātiska atbilde. Esmu ārpus biroja.' },
  lt: { subject: 'Automatinis atsakymas: Hello Ada', body: 'Tai automatinis atsakymas. Šiuo metu nesu biure.' },
  mt: { subject: 'Tweġiba awtomatika: Hello Ada', body: 'Din hija tweġiba awtomatika. Jien barra mill-uffiċċju.' },
  pl: { subject: 'Automatyczna odpowiedź: Hello Ada', body: 'To jest automatyczna odpowiedź. Jestem poza biurem.' },
  pt: { subject: 'Resposta automática: Hello Ada', body: 'Esta é uma resposta automática. Estou fora do escritório.' },
  ro: { subject: 'Răspuns automat: Hello Ada', body: 'Acesta este un răspuns automat. Sunt în concediu.' },
  sk: { subject: 'Automatická odpoveď: Hello Ada', body: 'Toto je automatická odpoveď. Som mimo kancelárie.' },
  sl: { subject: 'Samodejni odgovor: Hello Ada', body: 'To je samodejni odgovor. Sem odsoten do ponedeljka.' },
  es: { subject: 'Respuesta automática: Hello Ada', body: 'Esta es una respuesta automática. Estoy fuera de la oficina.' },
  sv: { subject: 'Automatiskt svar: Hello Ada', body: 'Detta är ett automatiskt svar. Jag är inte på kontoret.' },
  ja: { subject: '自動返信: Hello Ada', body: '誠に勝手ながら、ただいま不在にしております。' },
  zh: { subject: '自动回复: Hello Ada', body: '这是一封自动回复邮件。我目前不在办公室。' },
  ko: { subject: '자동 응답: Hello Ada', body: '자동 응답 메일입니다. 현재 부재중입니다.' },
  ru: { subject: 'Автоматический ответ: Hello Ada', body: 'Это автоматический ответ. Я в отпуске до понедельника.' },
};

test('the word file covers the 24 official EU languages and Japanese, Chinese, Korean and Russian', () => {
  const eu = [
    'bg',
    'hr',
    'cs',
    'da',
    'nl',
    'en',
    'et',
    'fi',
    'fr',
    'de',
    'el',
    'hu',
    'ga',
    'it',
    'lv',
    'lt',
    'mt',
    'pl',
    'pt',
    'ro',
    'sk',
    'sl',
    'es',
    'sv',
  ];
  expect(LANGUAGES.map((l) => l.code).sort()).toEqual([...eu, 'ja', 'zh', 'ko', 'ru'].sort());
  expect(Object.keys(EXAMPLES).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  for (const l of LANGUAGES) expect([l.subject.length, l.body.length]).toEqual([expect.any(Number), expect.any(Number)]);
});

test.each(Object.entries(EXAMPLES))('%s: the out-of-office subject alone is an auto-reply', async (_code, e) => {
  expect(await classify({ subject: e.subject, body: 'Back on Monday.' })).toMatchObject({ kind: 'auto_reply', reason: 'subject' });
});

test.each(Object.entries(EXAMPLES))('%s: the opening sentence under "Re:" is an auto-reply', async (_code, e) => {
  expect(await classify({ subject: 'Re: Hello Ada', body: e.body })).toMatchObject({ kind: 'auto_reply' });
});

test.each([
  'Thanks, Tuesday at 10 works for me.',
  'Sorry for the late answer, I was out of the office last week. Tuesday works.',
  'Danke, Dienstag passt. Ich war letzte Woche im Urlaub.',
  'Merci, mardi me convient.',
  'ありがとうございます。火曜日で大丈夫です。',
  'Спасибо, вторник подходит.',
])('a person answering "Re: Hello Ada" is still a reply: %s', async (body) => {
  expect(await classify({ subject: 'Re: Hello Ada', body })).toEqual({ kind: 'reply' });
});

test.each([
  'AUTO: Ada Lovelace is out of the office (returning 05/12/2026)',
  'AUTO: Ada Lovelace ist nicht im Büro (Rückkehr am 05.12.2026)',
  'AUTO : Ada Lovelace est absente du bureau (retour le 05/12/2026)',
  'Ada Lovelace is out of the office.',
])('Lotus Notes / Domino: %s', async (subject) => {
  expect(
    await classify({ subject, body: 'I will be out of the office starting 01/12/2026 and will not return until 05/12/2026.' }),
  ).toMatchObject({
    kind: 'auto_reply',
  });
});

test.each([
  ['subject', { subject: 'Please confirm you are human to deliver your message', body: 'Click the link below.' }],
  ['subject', { subject: 'Re: Hello Ada [Sender verification]', body: 'Click the link below.' }],
  [
    'body',
    { subject: 'Re: Hello Ada', body: 'Your message is awaiting verification. Please verify you are not a robot by clicking the link.' },
  ],
  ['body', { subject: 'Re: Hello Ada', body: 'I use a challenge-response system. Please prove you are human.' }],
  [
    'X-Boxtrapper',
    { subject: 'Your email requires verification verify#abc', body: 'x', headers: 'X-Boxtrapper: 6Tb9hvJ9yAuJH2FCy0gwpCiKxf9HsUyk\r\n' },
  ],
  ['X-Bluebottle-Request', { subject: 'Re: Hello Ada', body: 'x', headers: 'X-Bluebottle-Request: sender-verification\r\n' }],
  ['TMDA', { subject: 'Re: Hello Ada', body: 'x', headers: 'Message-ID: <1234567890.12345.confirm-abc-tmda-confirm>\r\n' }],
] as const)('challenge-response (%s) is an auto-reply, never a human reply', async (_by, o) => {
  expect(await classify(o)).toMatchObject({ kind: 'auto_reply' });
});
