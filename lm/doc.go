// Package lm is an n-gram language model of order up to 3: interpolated modified
// Kneser–Ney estimation as KenLM's lmplz builds it, ARPA reading and writing, fast
// queries, and the SLOR readability score that Handler & O'Connor (2019) report.
//
// # Estimation
//
// Train (or a Trainer) follows lmplz -o N without pruning:
//
//   - each sentence is wrapped as <s> w1 … wk </s>;
//   - the highest order keeps raw counts; a lower-order n-gram gets its continuation
//     count (the number of distinct words seen before it), except an n-gram starting
//     with <s>, which nothing can precede and which keeps its raw count;
//   - per order n, the discounts D1, D2 and D3+ come from the count-of-counts t1…t4 of
//     those adjusted counts (Chen & Goodman's eq. 26): Y = t1/(t1+2·t2),
//     Dk = k − (k+1)·Y·t(k+1)/tk;
//   - p(w | h) = (a(hw) − D(a(hw)))/Σx a(hx) + γ(h)·p(w | h′), with
//     γ(h) = (D1·N1(h•) + D2·N2(h•) + D3+·N3+(h•))/Σx a(hx) and h′ = h without its
//     first word; the unigrams are interpolated with the uniform distribution over the
//     vocabulary without <s> (lmplz's default), or give all of γ to <unk>
//     (Options.NoUnigramInterpolation, lmplz --interpolate_unigrams 0, SRILM's way);
//   - the ARPA file holds log10 p of every n-gram and log10 γ of every context.
//
// The one deliberate difference: lmplz refuses a corpus that contains "<unk>", while
// the training split of the Google compression corpus writes every word outside its
// 50,000-word vocabulary as "<unk>". Here "<unk>" in the text is the unknown word and is
// counted like any other word, so the model learns the contexts of unknown words, and a
// word outside the vocabulary at query time is read as "<unk>" with those contexts.
//
// # Queries
//
// A Model answers p(w | h) with the ARPA backoff rule: the longest n-gram of the model
// ending in w, plus the backoff weights of the longer contexts that are missing. Word ids
// are packed into one uint64 per n-gram (21 bits a word) and found through an
// open-addressing index, so a query allocates nothing. A Model is read-only and safe for
// concurrent use.
//
// # SLOR
//
// SLOR (Lau, Clark & Lappin 2015) is the readability score of the paper's Table 2:
//
//	SLOR(ξ) = (log10 P_LM(ξ) − Σ_{w∈ξ} log10 P_uni(w)) / |ξ|
//
// where P_LM(ξ) includes <s> and </s> (KenLM's score with bos and eos), P_uni is the
// model's own unigram probability (OOV words get that of <unk>) and |ξ| is the number of
// words. Words are normalized first (see Normalize) as the training text was.
package lm
