# The items of the German and French reading test (docs/reading.md, "German and French"),
# as they were drawn: 36 sentences a language from UD_German-PUD and UD_French-PUD (the
# "# text =" lines, one file a language, as docs/languages.md extracts them to /tmp/pud),
# 110-300 characters, not among testdata/languages; one or two query words of at least
# 5 letters that are not stop words; budgets 60% of the sentence and 100, counting the
# display. python3 make-items.py PUD_DIR REPO
import json, random, re, sys
pud, repo = sys.argv[1], sys.argv[2]
rng = random.Random(35)
stop = {'de': set('der die das und oder aber nicht ist sind war waren wird werden wurde wurden hat haben hatte einen einem einer eines eine ein auch sich mit von für auf aus bei nach über unter durch gegen ohne zwischen diese dieser dieses diesen noch schon sehr mehr als wie wenn dass weil dann denn doch ihre ihren seine seiner seinem sein ihr ihm ihn sie wir ihr uns euch alle allen aller jedoch sowie etwa rund damit darauf dabei können konnte sollte wollte müssen'.split()),
        'fr': set('les des une un le la et ou mais pas est sont était étaient sera seront été avec pour dans sur par sans sous entre cette ces ses son sa leur leurs nous vous ils elles elle il qui que quoi dont où plus aussi très comme quand alors donc mais lors après avant depuis pendant selon tout tous toute toutes autre autres même avoir être fait faire peut pouvait'.split())}
used = set()
for lang in ('de', 'fr'):
    for l in open(f'{repo}/testdata/languages/{lang}.txt'):
        used.add(l.strip())
items, ins = [], []
for lang in ('de', 'fr'):
    sents = [l.strip() for l in open(f'{pud}/{lang}.txt') if l.strip()]
    rng.shuffle(sents)
    n = 0
    for s in sents:
        if s in used or not (110 <= len(s) <= 300):
            continue
        words = [w for w in re.findall(r"[^\W\d_]+", s) if len(w) >= 5 and w.lower() not in stop[lang]]
        words = list(dict.fromkeys(words))
        if len(words) < 2:
            continue
        k = 1 if n % 2 == 0 else 2
        q = rng.sample(words, k)
        if k == 2 and q[0].lower() == q[1].lower():
            continue
        n += 1
        for proto, b in (('b60', round(0.6 * len(s))), ('box100', 100)):
            iid = f'{lang}-{proto}-{n}'
            items.append(dict(id=iid, protocol=proto, source=f'pud-{lang}', text=s, query=q, budget=b, budget_counts='display', sent_id=f'{lang}-{n}'))
            ins.append(dict(id=iid, text=s, query=q, budget=b, budget_counts='display'))
        if n == 36:
            break
with open('items.jsonl', 'w') as f:
    for i in items:
        f.write(json.dumps(i, ensure_ascii=False) + '\n')
with open('in.jsonl', 'w') as f:
    for i in ins:
        f.write(json.dumps(i, ensure_ascii=False) + '\n')
