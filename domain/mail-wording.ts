/**
 * The words of delivery notices and out-of-office subjects, in English, German, French, Spanish,
 * Portuguese, Italian and Dutch (and the few Japanese and Chinese phrases the corpus holds); the
 * auto-reply words of 28 languages come from mail-words/auto-reply.json.
 * Each list is one regular expression, compiled once, matched against lower-cased text. Pure.
 */
import { alternation } from './alternation';
import autoReplyWords from './mail-words/auto-reply.json';

/** Each list's phrases, by its expression (test/domain/alternation.test.ts compares the two). */
export const PHRASES = new Map<RegExp, readonly string[]>();

/**
 * One expression per list, written in lower case and matched against lower-cased text (the
 * classifier lower-cases a notice once for all its lists), common leading characters factored out
 * (domain/alternation.ts): use it for where a list matches, or whether, not for which phrase did.
 */
const rx = (parts: string[]) => {
  const re = alternation(parts);
  PHRASES.set(re, parts);
  return re;
};

/** Subjects of delivery-failure notices. */
export const BOUNCE_SUBJECT = rx([
  // English
  'undeliver',
  'not delivered',
  'delivery (status )?(notification|failure|failed|has failed|incomplete|problem|report|error)',
  'returned mail',
  'failure (notice|delivery)',
  'mail delivery (failed|failure|system|subsystem|problem)',
  'could not be delivered',
  'non[- ]?delivery',
  'failed mail',
  'mail (system )?error',
  'processing error',
  'nameserver error',
  'automatically rejected',
  'bounce notification',
  'delivery failure',
  'warning: (message|could not|your message)',
  'delayed mail',
  '\\(delay\\)',
  '(mail )?delivery (status )?warning',
  // German
  'unzustellbar',
  'nicht zustellbar',
  'zustellung (ist )?fehlgeschlagen',
  'fehler bei der zustellung',
  // French
  'non remis',
  'non distribuable',
  '[ée]chec de (la )?(remise|distribution|livraison)',
  'non d[ée]livr[ée]',
  'utilisateur non recens[ée]',
  // Spanish
  'no entregad[oa]',
  'error de entrega',
  'fallo (en la|de) entrega',
  'no se (pudo|puede) entregar',
  // Portuguese
  'n[ãa]o entregue',
  'falha (na|de) entrega',
  'mensagem devolvida',
  // Italian
  'non recapitat',
  'mancato recapito',
  'errore di (consegna|recapito)',
  'consegna non riuscita',
  // Dutch
  'onbestelbaar',
  'niet (bezorgd|afgeleverd)',
  'bezorging mislukt',
]);

/** Sentences a delivery-failure notice says about the message. */
export const BOUNCE_BODY = rx([
  // English
  "(could|can)(n['o]t| not) (be )?deliver",
  'cannot be delivered',
  "wasn't able to deliver",
  'was unable to deliver',
  'unable to deliver',
  '(was|were|has) not (been )?delivered',
  'did not reach the following recipient',
  'delivery to the following recipients? (failed|has been delayed)',
  'delivery has failed',
  'undeliverable (to|mail|message)',
  'not delivered to',
  'permanent (error|failure|fatal)',
  'failed recipients',
  'following address(es|\\(es\\))? (failed|had permanent)',
  'error has occurred while attempting to deliver',
  'not accepting mail from',
  'did not receive this message',
  'encountered (an error|delivery problems)',
  'automatically rejected',
  'non-delivery report',
  'failure reasons',
  'failed to deliver',
  'has been returned because',
  'delivery failed \\d+ attempts',
  'not yet been delivered',
  'has been postponed',
  'mail delivery failed',
  'an error was detected while processing',
  // German
  'konnte nicht (zugestellt|ausgeliefert)',
  'nicht zugestellt werden',
  'zustellung (ist )?fehlgeschlagen',
  // French
  "n'a pas pu [êe]tre (remis|d[ée]livr|distribu|transmis)",
  'impossible de (remettre|distribuer|livrer)',
  // Spanish
  'no (se )?(ha )?(pudo|podido|puede) (ser )?entregar',
  'no pudo ser entregad',
  // Portuguese
  'n[ãa]o (p[ôo]de|foi poss[íi]vel) (ser )?entreg',
  // Italian
  'non ([èe] stato possibile|pu[òo] essere) (recapitar|consegnar)',
  'impossibile (recapitare|consegnare)',
  // Dutch
  'kon niet worden (afgeleverd|bezorgd)',
  'kan niet worden (afgeleverd|bezorgd)',
  // Chinese (GB2312 as decoded): "could not be sent to the address you gave"
  '邮件无法发送',
]);

/** The notice says the address does not exist or is closed: hard when nothing more precise was said. */
export const DEAD_WORDS = rx([
  // English
  'user unknown',
  'unknown (user|recipient|address|local[- ]?part|mailbox)',
  'no such (user|mailbox|recipient|address|person|domain)',
  "(user|mailbox|address|account|recipient|domain)( name)? (does not|doesn't|do not) exist",
  'domain does not exist',
  "doesn't have an? .{1,40} account",
  'address (not found|rejected)',
  'recipient( address)? (not found|rejected)',
  'recipientnotfound',
  '(invalid|bad) (mailbox|recipient|address|user|final delivery userid|destination)',
  'account (has been )?(disabled|discontinued|deactivated|closed|suspended|expired)',
  'mailbox (unavailable|not found|disabled|inactive)',
  'not listed in (the )?(domino )?directory',
  'recipient name is not recognized',
  'not a valid user',
  'no longer valid',
  'does not have a final email delivery point',
  'no matches to nameserver query',
  'unknown host',
  'host not found(?!, try again)',
  'user not (known|found)',
  'unrouteable address',
  // Exim's answer for a domain that does not resolve ("Unrouteable mail domain"), with no status
  'unrouteable (mail )?domain',
  'no valid recipients?',
  'all relevant mx records point to non-existent hosts',
  'did not exactly match',
  // German
  '(empf[äa]nger|benutzer|adresse|nutzer)( ist)? unbekannt',
  'unbekannte[rn]? (empf[äa]nger|benutzer|adresse)',
  'existiert nicht',
  'ung[üu]ltige (e-mail-)?(adresse|empf[äa]nger)',
  // French
  "n'existe (pas|plus)",
  '(destinataire|utilisateur|adresse) inconnu',
  'adresse (invalide|incorrecte)',
  'non recens[ée]',
  // Spanish
  'no existe',
  '(usuario|destinatario|direcci[óo]n) desconocid',
  'direcci[óo]n (no v[áa]lida|inv[áa]lida|incorrecta)',
  // Portuguese
  'n[ãa]o existe',
  '(usu[áa]rio|destinat[áa]rio|endere[çc]o) desconhecid',
  'endere[çc]o inv[áa]lido',
  // Italian
  'non esiste',
  '(utente|destinatario|indirizzo) sconosciut',
  'indirizzo (non valido|inesistente)',
  'casella (inesistente|non esiste)',
  // Dutch
  'bestaat niet',
  'onbekende? (gebruiker|ontvanger|adres)',
  'ongeldig (e-mail)?adres',
  // Japanese: "not in the directory list"
  'ディレクトリのリストにありません',
]);

/**
 * A full mailbox, in the wordings real servers use (Exchange, Gmail, Yahoo, qmail/vpopmail, Exim,
 * Dovecot, Courier, Domino, GMX, Mail.ru, Zoho …) and the seven languages of this file. The address
 * exists and may take mail again: soft, even under a class-5 status (domain/mail-status.ts).
 */
const FULL_MAILBOX_PHRASES = [
  // English
  'quota',
  'mailbox (is )?full',
  'full mailbox',
  'mail ?box space not enough',
  'mailfolder is full',
  '(inbox|mailbox|mail box|account|mailfolder|maildir|folder|storage|disk)( is| has| has been)? (full|overflowed|overfull)',
  '(inbox|mailbox|account|user|recipient)( is| has)? over (its |the |their |his |her )?(quota|limit|storage|size)',
  'exceeded (its|the|his|her|their) (disk |storage |mailbox )?(space|quota|size|storage)',
  'disk space limit',
  'not enough (disk |storage )?space',
  'no (more )?(disk )?space left',
  'out of (disk |storage )?space',
  'insufficient (system |disk )?(storage|space)',
  'storage (space )?(limit|full|allocation|exceeded)',
  'exceeded storage',
  'over ?quota',
  'full (inbox|storage)',
  // German
  'postfach (ist )?(voll|[üu]berf[üu]llt)',
  'speicherplatz',
  'nicht gen[üu]gend speicher',
  'speicher(grenze|kontingent)',
  // French
  'bo[îi]te (aux lettres |de r[ée]ception )?(est )?pleine',
  'espace (disque |de stockage )?insuffisant',
  "plus d'espace",
  // Spanish
  'buz[óo]n (de correo )?(est[áa] )?lleno',
  'espacio (en disco |de almacenamiento )?insuficiente',
  'no hay (suficiente )?espacio',
  'cuota (excedida|superada)',
  // Portuguese
  'caixa (postal |de correio )?(est[áa] )?(cheia|lotada)',
  'espa[çc]o (em disco )?insuficiente',
  'cota (excedida|ultrapassada)',
  // Italian
  'casella (di posta )?([èe] )?(piena|satura)',
  'spazio (su disco )?(insufficiente|esaurito)',
  // Dutch
  'mailbox (is )?vol\\b',
  'postvak (is )?vol\\b',
  'onvoldoende (schijf)?ruimte',
  'quotum',
];

/** The notice says the mailbox is full (any of FULL_MAILBOX_PHRASES). */
export const FULL_MAILBOX_WORDS = rx(FULL_MAILBOX_PHRASES);

/** The notice names a cause that does not make the address dead: these win over a bare 5xx. */
export const SOFT_WORDS = rx([
  ...FULL_MAILBOX_PHRASES,
  'exceeds? (the )?allowed size',
  '(message|mail) size (limit )?exceed',
  'exceeded maximum (inbound )?message size',
  'message (is )?too (big|large)',
  'loop(ing)?\\b',
  'too many hops',
  'hop count exceeded',
  'not responding',
  'try again later',
  ', try again',
  'temporar(y|ily)',
  'not possible to save the message',
  // German, French, Spanish, Portuguese, Italian, Dutch: temporary
  'vor[üu]bergehend',
  'temporaire',
  'temporal',
  'tempor[áa]ri',
  'temporane',
  'tijdelijk',
]);

/** The server says it gave up for good, without saying why. */
export const PERMANENT_WORDS = rx([
  'permanent(ly)? (error|failure|fatal)',
  'failed permanently',
  'fatal errors?',
  "(i've|i have) given up",
  'not going to try again',
  'dauerhafte[rn]? fehler',
  'permanente[rn]? fehler',
  'erreur permanente',
  'error permanente',
  'erro permanente',
  'errore permanente',
  'permanente fout',
]);

/** A warning: the message is late, the server keeps trying. Not a bounce. */
export const DELAY_WORDS = rx([
  '\\bdelay(ed)?\\b',
  'not yet been delivered',
  'still being retried',
  'will (be )?retr(y|ied)',
  'will (continue to )?attempt (delivery|to deliver)',
  'will keep trying',
  'delivery attempts will continue',
  'warning message only',
  'this is (just |only )?a warning',
  'postponed',
  'verz[öo]gert',
  'retard[ée]',
  'retrasad',
  'atrasad',
  'ritardat',
  'vertraagd',
]);

/** The auto-reply words of each language (domain/mail-words/auto-reply.json). */
export const LANGUAGES: ReadonlyArray<{ code: string; name: string; subject: readonly string[]; body: readonly string[] }> = Object.entries(
  autoReplyWords.languages,
).map(([code, l]) => ({ code, ...l }));

/** Out-of-office and other automatic-answer subjects (after `Re:`-style and `[…]` prefixes). */
export const AUTO_REPLY_SUBJECT = rx([
  '^auto(matic|matisch)?[ -]?(reply|response|answer|antwort|antwoord)',
  '\\bauto-?reply\\b',
  '^out of (the )?office',
  '^ooo\\b',
  '^away from (the |my )?(office|mail|e-?mail)',
  '^on vacation',
  '^vacation (reply|notice|message)',
  '^\\[?request received',
  // German
  '^abwesenheit',
  '^automatische antwort',
  '^nicht im b[üu]ro',
  // French
  '^r[ée]ponse automatique',
  '^absente? du bureau',
  "^message d'absence",
  // Spanish
  '^respuesta autom[áa]tica',
  '^fuera de (la )?oficina',
  // Portuguese
  '^resposta autom[áa]tica',
  '^(ausente|fora) do escrit[óo]rio',
  // Italian
  '^risposta automatica',
  '^fuori (ufficio|sede)',
  "^assente dall'ufficio",
  // Dutch
  '^automatisch antwoord',
  '^afwezig',
  '^niet op kantoor',
  // Lotus Notes and Domino: `AUTO: <name> is out of the office (returning …)`
  '^auto ?: ',
  '\\bis out of (the )?office\\b',
  // The 24 official languages of the EU, Japanese, Chinese, Korean, Russian (mail-words/auto-reply.json)
  ...LANGUAGES.flatMap((l) => l.subject.map((phrase) => `^${phrase}`)),
]);

/** The sentences an automatic answer opens with, in the languages of mail-words/auto-reply.json (its first 500 characters). */
export const AUTO_REPLY_BODY = rx(LANGUAGES.flatMap((l) => l.body));

/** A challenge-response filter's request to prove a human sent our message (subject or first 500 characters). */
export const CHALLENGE_RESPONSE = rx([...autoReplyWords.challengeResponse.phrases]);
