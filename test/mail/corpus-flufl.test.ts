import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseMailFacts } from '../../core/mail-facts';
import { classifyMail } from '../../domain/mail-classify';
import { DOMAINS, TOKEN } from './corpus';
import { corpusPath, envelopeOf, loadCorpus, mailCorpusDir } from './corpus/sources';

/**
 * Differential check of the failed address against flufl.bounce (Mailman's detector, Python, from
 * the tools cache where scripts/bootstrap.js installs it). Where both name an address they should
 * agree; the disagreements are printed. Those read by hand (test/mail/corpus/README.md) are mostly
 * free-text notices where flufl.bounce knows a provider's wording and we take the first address.
 */
const PY = `
import json, sys, email
from flufl.bounce import scan_message
out = {}
for p in json.load(sys.stdin):
    try:
        found = scan_message(email.message_from_bytes(open(p, 'rb').read()))
    except Exception:
        found = set()
    out[p] = sorted((a.decode('latin-1') if isinstance(a, bytes) else a).lower() for a in found)
print(json.dumps(out))
`;

test('the failed address agrees with flufl.bounce on at least 95% of the bounces where both name one', async () => {
  const pyPath = path.join(mailCorpusDir(), 'py');
  expect(fs.existsSync(path.join(pyPath, 'flufl', 'bounce'))).toBe(true); // run `node scripts/bootstrap.js`
  const bounces = loadCorpus().filter((m) => m.label.class === 'bounce' || m.label.class === 'warning');
  const files = bounces.map((m) => corpusPath(m.key));
  const r = spawnSync('python3', ['-c', PY], {
    input: JSON.stringify(files),
    env: { ...process.env, PYTHONPATH: pyPath },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  const theirs = JSON.parse(r.stdout) as Record<string, string[]>;
  let agree = 0;
  const differ: string[] = [];
  for (const m of bounces) {
    const c = classifyMail(await parseMailFacts(m.raw, envelopeOf(m.raw, `reply+${TOKEN}@${DOMAINS.reply}`)), DOMAINS).class;
    const ours = ('recipient' in c ? (c.recipient ?? '') : '').toLowerCase();
    const found = theirs[corpusPath(m.key)];
    if (!found.length) continue;
    if (found.includes(ours)) agree++;
    else differ.push(`  ${m.key}: ours ${ours || '(none)'}, flufl.bounce ${found.join(', ')}`);
  }
  process.stdout.write(`\nfailed address vs flufl.bounce: ${agree} agree, ${differ.length} differ\n${differ.join('\n')}\n`);
  expect(agree / (agree + differ.length)).toBeGreaterThanOrEqual(0.95);
});
