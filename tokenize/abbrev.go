package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/wordshape"
)

// Abbreviation classes: how a period after a word is treated.
const (
	abbrNone      uint8 = iota // the period is a token of its own
	abbrTitle                  // keeps its period and never ends a sentence (Mr., Gen., vs.)
	abbrOther                  // keeps its period; ends a sentence before a sentence starter (Inc., Calif., U.S.)
	abbrAmbiguous              // also an ordinary word (Mass., No.): keeps its period only mid-sentence
)

// abbrevs maps words that take an abbreviation period to their class. Forms are
// case-sensitive; an all-capitals title or company word is also looked up capitalized
// (MR → Mr). Where usage is split, the Google corpus decides: it keeps the period of ET.,
// II. and Miss. even at the end of a sentence, but splits it off units (22.17 mins .).
var abbrevs = func() map[string]uint8 {
	m := map[string]uint8{}
	add := func(class uint8, words string) {
		for _, w := range strings.Fields(words) {
			m[w] = class
		}
	}
	add(abbrTitle, `Mr Mrs Ms Messrs Mmes Dr Drs Prof Profs Gov Govs Sen Sens Rep Reps Gen Lt Col
		Maj Capt Cpt Sgt Cpl Pvt Adm Cmdr Cdr Brig Rev Hon Pres Supt Det Insp Amb Atty Fr Nos
		vs Vs v`)
	add(abbrOther, `Jr Sr Inc Corp Ltd Co Cos Bros Plc Pty LLC Assn Ave Blvd Rd Rt Hwy Pkwy Sq
		Ste St Ft Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Mon Tue Tues Wed Thu Thur
		Thurs Fri Sat Ala Ariz Ark Calif Colo Conn Fla Ga Ill Ind Kan Kans Ky Md Mich Minn Miss
		Mont Neb Nebr Nev Okla Ore Tenn Tex Va Vt Wis Wisc Wyo Ont Que Sask Alta Dept Univ
		Inst Assoc Asst Vol Vols Fig Figs Eds Esq Rs Approx ET PT II III
		etc al approx cf viz esp incl feat govt dept est vol p pp ca inc misc fig figs ch ed eds
		Fed Civ Crim Evid Cir Supp Stat Ct App Cal Cf Id Art Soc Servs Hous Cmty Cmtys
		Dep't Gov't Int'l Nat'l Ass'n Comm'n
		Eq Eqs Ref Refs Suppl Tab Tabs Mol Biol Chem Phys Proc Natl Acad Sci Lett Res Clin
		eq eqs ref refs suppl`) // the law's: Fed. R. Civ. P., Dep't of Soc. Servs.; science's: Eq. (4), Ref. 23, Mol. Cell
	add(abbrAmbiguous, `No Mass Mt La Mo Del Pa Penn Sun Wash no
		sq ft yr yrs mos wk wks hr hrs min mins sec secs oz lb lbs pt pts`)
	return m
}()

// abbrevClass returns the class of word w followed by a period. Besides the list, single
// capital letters (initials: George W. Bush) and dotted forms whose parts are short words,
// one of them a single letter (U.S, a.m, Ph.D, e.g), are abbreviations.
func abbrevClass(w string) uint8 {
	if w == "" {
		return abbrNone
	}
	if r, n := utf8.DecodeRuneInString(w); n == len(w) {
		if unicode.IsUpper(r) {
			return abbrOther
		}
		return lookup(w)
	}
	if strings.IndexByte(w, '.') >= 0 {
		if isDotted(w) {
			return abbrOther
		}
		return abbrNone
	}
	if c := lookup(w); c != abbrNone {
		return c
	}
	// MR, INC: look up the capitalized form of titles and company words.
	var b [8]byte
	if len(w) > len(b) || !isUpperASCII(w) {
		return abbrNone
	}
	b[0] = w[0]
	for i := 1; i < len(w); i++ {
		b[i] = w[i] | 0x20
	}
	c := string(b[:len(w)])
	if lookup(c) == abbrTitle || corporate[c] {
		return lookup(c)
	}
	return abbrNone
}

// EndsWithAbbreviation reports whether text ends with an abbreviation and its period
// ("OKAFOR v. MERIDIAN HEALTH SYSTEMS, INC.", "Smith Jr."), closing quotes and brackets
// aside: a line that ends so need not end a sentence.
func EndsWithAbbreviation(text string) bool {
	text = strings.TrimRight(text, closingMarks)
	w, ok := strings.CutSuffix(text, ".")
	if !ok {
		return false
	}
	if i := strings.LastIndexFunc(w, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == ',' }); i >= 0 {
		_, size := utf8.DecodeRuneInString(w[i:])
		w = w[i+size:]
	}
	return w != "" && abbrevClass(w) != abbrNone
}

// corporate words are looked up in capitals too (INC., CORP.), unlike states (GA, VA).
var corporate = setOf(`Inc Corp Ltd Co Bros Jr Sr St`)

// lookup returns the class of w in the list. It looks in the map only for a first byte and
// length that some word of the list has (abbrevShapes): most words are none without a hash.
func lookup(w string) uint8 {
	if !abbrevShapes.Maybe(w) {
		return abbrNone
	}
	return abbrevs[w]
}

// abbrevShapes holds the first bytes and lengths of the words of abbrevs.
var abbrevShapes = func() (f wordshape.Filter) {
	for w := range abbrevs {
		f.AddWord(w)
	}
	return f
}()

// isDotted reports whether w looks like U.S, a.m, Ph.D or W.Va: letter groups of at most
// three letters separated by single periods, at least one of them a single letter.
func isDotted(w string) bool {
	single := false
	for part := range strings.SplitSeq(w, ".") {
		n := 0
		for _, r := range part {
			if !unicode.IsLetter(r) {
				return false
			}
			n++
		}
		if n == 0 || n > 3 {
			return false
		}
		single = single || n == 1
	}
	return single
}

func isUpperASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'A' || w[i] > 'Z' {
			return false
		}
	}
	return true
}

// determiners are capitalized words that do not form a proper name with the next word,
// for the "San Francisco-based" rule.
var determiners = setOf(`A An The This That These Those Its His Her Their Our My Your Every Each
	Some Any No In On At For From With By Of To And Or But As`)

// starters are words (lowercased) that commonly begin a sentence; after an abbreviation
// such as "Inc." or an initial, a following starter signals a sentence boundary.
var starters = setOf(`the a an this that these those there here it its he she they we i you
	his her their our my your in on at for from with by to of as after before when while if
	but and or so yet however meanwhile also then now some many most all both each every no
	not other another such what who which where why how although though because since during
	under over last next according earlier later today yesterday still instead despite even
	just only more one two three several few`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
