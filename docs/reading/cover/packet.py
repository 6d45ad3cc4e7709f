# Rewrites a packet of `readtest pairs` for result entries (several snippets of one
# document) instead of single snippets: the instructions, and the labels Document and
# Entry. The key is unchanged, so `readtest tally` reads the verdicts as usual.
# usage: python3 packet.py PACKET...
import sys
instr = '''Each pair shows a document, a search query, and two entries that a search results page
could show under the document: up to three snippets each, cut from the document's
sentences, each at most 100 characters ("…" marks where words were left out). Imagine
you searched for the query and this document came up: which of the two entries serves
you better as a search result (tells you what the document says about your query, and
reads well)?

Answer with one line per pair, in a plain text file:

    <pair number> 1     entry 1 is better
    <pair number> 2     entry 2 is better
    <pair number> =     no preference (equally good or equally bad)

for example "7 2". You may add a comment after the verdict on the same line. Judge
every pair on its own; the order of the two entries is random.
'''
for path in sys.argv[1:]:
    s = open(path).read()
    head, rest = s.split('\n\n', 1)
    rest = rest[rest.index('\n=== Pair'):]
    for a, b in (('\nSentence:  ', '\nDocument:  '), ('\nSnippet 1: ', '\nEntry 1:   '), ('\nSnippet 2: ', '\nEntry 2:   '),
                 ('\nBudget:    100 characters\n', '\nBudget:    100 characters a snippet\n')):
        rest = rest.replace(a, b)
    open(path, 'w').write(head + '\n\n' + instr + rest)
