// Package redact owns the boundary filter: every reply passes it before it is spoken or
// returned. It removes what a robot in a shared room must never say — e-mail addresses,
// phone numbers, payment cards, IBANs, national ID numbers, API keys and tokens, URLs that
// carry credentials, and the terms the owner lists (full names, employers, addresses) — and
// caps the length of speech. It reports the kinds of redaction applied, never the text removed.
//
// It is pure: no I/O, no imports of this project, and it never returns text it has not
// checked. Callers treat any failure (including a panic) as "say the fixed apology".
package redact

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kinds of redaction, as recorded in the audit log.
const (
	KindEmail    = "email"
	KindPhone    = "phone"
	KindCard     = "card"
	KindIBAN     = "iban"
	KindNationID = "national_id"
	KindSecret   = "secret"
	KindURL      = "url_credentials"
	KindTerm     = "sensitive_term"
	KindLength   = "length"
)

// Apology is what the robot says when the redactor cannot run.
const Apology = "Sorry, I can't answer that right now."

// DefaultMaxChars caps spoken replies: about 30 seconds of speech.
const DefaultMaxChars = 400

// Config is what the owner configures.
type Config struct {
	Terms    []string // sensitive terms: full names, employers, addresses ...
	MaxChars int      // length cap for speech; DefaultMaxChars when 0
}

// Result is the redacted text and the kinds of redaction applied (sorted, unique).
type Result struct {
	Text  string
	Kinds []string
}

// Redactor applies a Config. Safe for concurrent use.
type Redactor struct {
	max   int
	terms []termPattern // the longest first
}

// New compiles a redactor.
func New(c Config) (*Redactor, error) {
	r := &Redactor{max: c.MaxChars}
	if r.max <= 0 {
		r.max = DefaultMaxChars
	}
	type term struct {
		first     string
		opens     []string
		alts      []string
		wholeWord bool
	}
	var terms []term
	for _, t := range c.Terms {
		words := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(words) == 0 {
			continue
		}
		tm := term{first: words[0], opens: asciiOpens(words), wholeWord: !asciiEdges(words)}
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		// Words may be joined by spaces, punctuation or nothing; a possessive may follow.
		tm.alts = append(tm.alts, strings.Join(words, `[\s\p{P}]*`)+`(?:['’]s)?`)
		if len(words) == 2 { // "Doe, Jane"
			tm.alts = append(tm.alts, words[1]+`\s*,\s*`+words[0])
		}
		terms = append(terms, tm)
	}
	// The longest first: "Jane Doe" goes before "Jane" can take its first word.
	sort.SliceStable(terms, func(i, j int) bool { return len(terms[i].alts[0]) > len(terms[j].alts[0]) })
	for _, tm := range terms {
		expr := `(?i)\b(?:` + strings.Join(tm.alts, "|") + `)\b`
		if tm.wholeWord {
			expr = `(?i)(?:` + strings.Join(tm.alts, "|") + `)`
		}
		re, err := newStartRE(expr)
		if err != nil {
			return nil, fmt.Errorf("redact terms: %w", err)
		}
		r.terms = append(r.terms, termPattern{first: tm.first, opens: tm.opens, re: re, wholeWord: tm.wholeWord})
	}
	return r, nil
}

// MustDefault is a redactor with no configured terms (patterns and the length cap only).
func MustDefault() *Redactor {
	r, err := New(Config{})
	if err != nil {
		panic(err)
	}
	return r
}

var (
	emailRE = mustStartRE(`(?i)\b[a-z0-9._%+\-]+\s*(?:@|\(at\)|\[at\])\s*[a-z0-9\-]+(?:\s*(?:\.|\(dot\)|\[dot\])\s*[a-z0-9\-]+)*\s*(?:\.|\(dot\)|\[dot\])\s*[a-z]{2,}\b` +
		// "jane.doe at example.com": a local part with a dot, underscore or digit, "at" in words.
		`|\b[a-z0-9%+\-]*[._0-9][a-z0-9._%+\-]*\s+at\s+[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.(?:com|org|net|edu|gov|io|co|uk|de|fr|info|me|us|ca|au)\b`)
	spokenEmail = regexp.MustCompile(`(?i)\b[a-z0-9._\-]+(?:\s+(?:dot|underscore|dash)\s+[a-z0-9\-]+)*\s+at\s+[a-z0-9\-]+(?:\s+dot\s+[a-z0-9\-]+)*\s+dot\s+(?:com|org|net|edu|gov|io|co|uk|de|fr|info|me|us|ca|au)\b`)
	urlCredRE   = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.\-]*://[^\s/@]+:[^\s/@]+@\S+|\bhttps?://\S*[?&](?:token|access_token|api_key|apikey|key|secret|password|pass|pwd|sig|signature|auth|code)=\S+`)
	secretRE    = regexp.MustCompile(secretExpr())
	// The same prefixes with their separators gone (markup stripped, "s k _ l i v e" joined).
	joinedSecretRE = mustStartRE(`(?i)\b(?:sk|pk|rk)(?:live|test|proj|ant)[a-z0-9]{16,}|\bwhsec[a-z0-9]{20,}|\bgh[pousr][a-z0-9]{30,}|\bgithubpat[a-z0-9]{30,}` +
		`|\bxox[abposr][0-9]{6,}[a-z0-9]{6,}|\bglpat[a-z0-9]{20,}|\brbk[0-9a-f]{16}[a-z0-9]{20,}`)
	ibanRE         = mustStartRE(`(?i)\b[a-z]{2}[0-9]{2}(?:[ \-]?[a-z0-9]){11,30}\b`).with(ibanQuick, nil)
	ssnRE          = mustStartRE(`\b[0-9]{3}[- ][0-9]{2}[- ][0-9]{4}\b`).with(ssnQuick, nil)
	cardRE         = mustStartRE(`\b(?:[0-9][ \-]?){12,18}[0-9]\b`).with(cardQuick, nil)
	spokenDigitsRE = mustStartRE(`(?i)\b(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:[\s,.\-]+hundred)?[\s,.\-]+|(?:double|triple)[\s,.\-]+){6,}(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:[\s,.\-]+hundred)?\b`).with(nil, spokenDigitsAt)
	phoneRE        = mustStartRE(`(?:\+|\b00)[1-9][0-9]{0,2}[ .\-]?(?:\(?[0-9]{1,4}\)?[ .\-]?){2,5}[0-9]{2,4}\b|\(?\b[0-9]{3}\)?[ .\-][0-9]{3}[ .\-][0-9]{4}\b|\b0[1-9][0-9]{1,4}[ .\-]?[0-9]{3,4}[ .\-]?[0-9]{3,4}\b`+
		// Bare North American numbers: ten digits run together ("4155550134"; area code and
		// exchange start with 2-9, so 8000000000 people stays a number) and a seven-digit
		// local number written with its dash ("555-0134").
		`|\b[2-9][0-9]{2}[2-9][0-9]{6}\b|\b[2-9][0-9]{2}-[0-9]{4}\b`).with(phoneQuick, nil)
)

// ErrEmpty is never returned for empty input; Redact only fails on internal faults.
var errInternal = errors.New("redactor fault")

// Redact filters text. It never returns an error for ordinary input; a non-nil error means
// the caller must say Apology instead.
func (r *Redactor) Redact(text string) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, fmt.Errorf("%w: %v", errInternal, p)
		}
	}()
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "")
	}
	// Fullwidth and other compatibility forms ("jane＠example．com") fold to ASCII first, and
	// what a listener cannot see goes: the patterns see the text as it will be spoken.
	text = canonical(text)
	kinds := map[string]bool{}
	replace := func(re *regexp.Regexp, kind string, check func(string) bool) {
		text = re.ReplaceAllStringFunc(text, func(m string) string {
			if check != nil && !check(m) {
				return m
			}
			kinds[kind] = true
			return placeholder(kind)
		})
	}
	// Cheap guards skip patterns that cannot match: most replies have few digits and no "@".
	nDigits := 0
	for i := 0; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' {
			nDigits++
		}
	}
	lower := strings.ToLower(text)
	mayEmail := strings.Contains(text, "@") || strings.Contains(lower, " at ") || strings.Contains(lower, "(at)") || strings.Contains(lower, "[at]")
	// A token said with its separators, letters or digits as words ("sk underscore live
	// underscore …", "sierra kilo …", "jane at example dot dev"): decoded, then judged.
	if mayBeSpoken(lower) {
		if t, found := replaceSpokenTokens(text, alnumRuns(text)); found != nil {
			text, lower = t, strings.ToLower(t)
			for _, k := range found {
				kinds[k] = true
			}
		}
	}
	// One scan of the text finds where each pattern can start (word starts, and the prefixes
	// the secret patterns open with); a pattern runs anchored there, not over the whole text.
	// The scan is redone only after a pass has changed the text.
	sc := &textScan{ix: prefixes}
	replaceAt := func(p *startRE, starts []int, kind string, check func(string) bool) {
		if len(starts) == 0 {
			return
		}
		text = p.replaceAt(text, starts, func(m string) string {
			if check != nil && !check(m) {
				return m
			}
			kinds[kind] = true
			return placeholder(kind)
		})
	}
	digitWords := spokenDigitWords(lower)
	if digitWords >= minSpokenDigits {
		replaceAt(spokenDigitsRE, sc.of(text).spokenDigitStarts(), KindPhone, notCounting)
	}
	// An IBAN match may run on into the next word ("... 7654 32 by"): keep the longest valid
	// prefix, made of whole space-separated groups.
	if nDigits >= 4 && mayIBAN(text) {
		text = ibanRE.replaceAt(text, sc.of(text).ibanStarts(), func(m string) string {
			groups := strings.Split(m, " ")
			for n := len(groups); n > 0; n-- {
				if validIBAN(strings.Join(groups[:n], " ")) {
					kinds[KindIBAN] = true
					rest := strings.Join(groups[n:], " ")
					if rest != "" {
						rest = " " + rest
					}
					return placeholder(KindIBAN) + rest
				}
			}
			return m
		})
	}
	if strings.Contains(text, "://") {
		replace(urlCredRE, KindURL, nil)
	}
	// Each secret family runs only at the words its prefixes start, in the order of the table.
	for i, f := range secretFamilies {
		replaceAt(f, sc.of(text).hits[i], KindSecret, notAPlaceholder)
	}
	replaceAt(joinedSecretRE, sc.of(text).hits[setJoined], KindSecret, nil)
	if mayCredential(lower) {
		if t, ok := replaceCredentials(text); ok {
			text = t
			kinds[KindSecret] = true
		}
	}
	if mayEmail {
		// With no "@" and no "(at)", only an address with "at" in words can match: it needs a
		// dot after the "at".
		if strings.Contains(text, "@") || strings.Contains(lower, "(at)") || strings.Contains(lower, "[at]") ||
			strings.Contains(lower[strings.Index(lower, " at ")+1:], ".") {
			replaceAt(emailRE, emailStarts(text), KindEmail, nil)
		}
		if strings.Contains(lower, " dot ") {
			replace(spokenEmail, KindEmail, plausibleSpokenEmail)
		}
	}
	if nDigits >= 7 {
		replaceAt(ssnRE, sc.of(text).digitStarts(), KindNationID, validSSN)
		replaceAt(cardRE, sc.of(text).digitStarts(), KindCard, luhn)
		replaceAt(phoneRE, phoneStarts(text), KindPhone, plausiblePhone)
	}
	// Said in pieces: a secret split into short runs or spelled out, then a number read out in
	// groups or digit by digit.
	runs := alnumRuns(text)
	if t, found := replaceSplitSecrets(text, runs); found != nil {
		text, runs = t, nil
		for _, k := range found {
			kinds[k] = true
		}
	}
	if nDigits >= 3 || digitWords >= 3 {
		if runs == nil {
			runs = alnumRuns(text)
		}
		if t, kind := replaceNumberRuns(text, runs); kind != "" {
			text = t
			kinds[kind] = true
		}
	}
	if t, ok := replaceTokenRuns(text); ok {
		text = t
		kinds[KindSecret] = true
	}
	// A known prefix with only the start of its body, or an id said alone.
	if t, ok := replacePartialSecrets(text, sc); ok {
		text = t
		kinds[KindSecret] = true
	}
	// The rest of a secret said apart from its start.
	if kinds[KindSecret] || containsAny(lower, secretWords) {
		if t, ok := replaceSecretFragments(text); ok {
			text = t
			kinds[KindSecret] = true
		}
	}
	if len(r.terms) > 0 {
		lowerNow := strings.ToLower(text)
		for _, t := range r.terms {
			if strings.Contains(lowerNow, t.first) {
				if t.wholeWord {
					if out, ok := replaceWholeWords(text, t.re.re, placeholder(KindTerm)); ok {
						text = out
						kinds[KindTerm] = true
					}
				} else if t.opens == nil {
					replace(t.re.re, KindTerm, nil)
				} else {
					replaceAt(t.re, sc.of(text).prefixStarts(t.opens), KindTerm, nil)
				}
			}
		}
	}
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) > r.max {
		text = truncate(text, r.max)
		kinds[KindLength] = true
	}
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return Result{Text: text, Kinds: out}, nil
}

// secretAlternatives are secretRE's alternatives, each with the hints (lower case) one of
// which its match holds, and the prefixes (lower case) its match opens with at the start of
// a word. secretRE is their alternation; secretFamilies the same one by one: a reply runs
// only the few whose prefix starts one of its words, each anchored there.
var secretAlternatives = []struct {
	hints    []string
	prefixes []string
	expr     string
}{
	{[]string{"k-"}, []string{"sk-", "pk-", "rk-"}, `\b(?:sk|pk|rk)-(?:proj-|live-|test-)?[a-z0-9_\-]{16,}`},
	{[]string{"k_", "c_"}, []string{"sk_", "pk_", "rk_", "whsec_"}, `\b(?:sk|pk|rk|whsec)_(?:live_|test_)?[a-z0-9]{16,}`},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, `\bgh[pousr]_[a-z0-9]{20,}`},
	{[]string{"github_pat_"}, []string{"github_pat_"}, `\bgithub_pat_[a-z0-9_]{20,}`},
	{[]string{"xox"}, []string{"xox"}, `\bxox[abposr]-[a-z0-9\-]{10,}`},
	{[]string{"akia"}, []string{"akia"}, `\bAKIA[0-9A-Z]{16}\b`},
	{[]string{"aiza"}, []string{"aiza"}, `\bAIza[0-9a-z_\-]{30,}`},
	{[]string{"rbk_"}, []string{"rbk_"}, `\brbk_[0-9a-f]{16}_[a-z0-9_\-]{20,}`},
	{[]string{"glpat-"}, []string{"glpat-"}, `\bglpat-[a-z0-9_\-]{20,}`},
	{[]string{"eyj"}, []string{"eyj"}, `\beyJ[a-z0-9_\-]{8,}\.[a-z0-9_\-]{8,}\.[a-z0-9_\-]{8,}`},
	{[]string{"bearer"}, []string{"bearer"}, `\bbearer\s+[a-z0-9._\-~+/]{16,}=*`},
	{[]string{"key", "secret", "token", "passw"}, []string{"api", "secret", "token", "passw"}, `\b(?:api[_ ]?key|secret|token|password|passwd)\s*[:=]\s*\S{6,}`},
}

var secretFamilies = func() []*startRE {
	out := make([]*startRE, len(secretAlternatives))
	for i, a := range secretAlternatives {
		out[i] = mustStartRE(`(?i)` + a.expr)
	}
	return out
}()

// The start sets of the prefix index past the secret families: the joined-secret pattern,
// then the two partial-secret ones, each by the prefixes its matches open with.
var (
	setJoined        = len(secretAlternatives)
	setPartial       = setJoined + 1
	setJoinedPartial = setJoined + 2
)

// prefixes is one index of every prefix the redactor's prefixed patterns open with: one scan
// of a reply finds them all.
var prefixes = func() *prefixIndex {
	sets := make([][]string, setJoinedPartial+1)
	for i, a := range secretAlternatives {
		sets[i] = a.prefixes
	}
	sets[setJoined] = []string{"sk", "pk", "rk", "whsec", "gh", "github", "xox", "glpat", "rbk"}
	sets[setPartial] = []string{"sk", "pk", "rk", "gh", "github", "xox", "glpat", "whsec", "rbk", "akia", "aiza"}
	sets[setJoinedPartial] = []string{"gh", "xox", "glpat"}
	return newPrefixIndex(sets)
}()

func secretExpr() string {
	exprs := make([]string, len(secretAlternatives))
	for i, a := range secretAlternatives {
		exprs[i] = a.expr
	}
	return `(?i)` + strings.Join(exprs, "|")
}

// secretHints: every alternative of secretRE holds one of these (lower case), so text
// without any of them cannot match it. They guard secretRE where it judges a decoded token
// (said in words, or in pieces); in a reply, the prefix index finds where each family starts.
var secretHints = []string{"k-", "k_", "c_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "akia", "aiza",
	"glpat-", "eyj", "bearer", "key", "secret", "token", "passw"}

// joinedSecretHints: the same for joinedSecretRE.
var joinedSecretHints = []string{"sklive", "sktest", "skproj", "skant", "pklive", "pktest", "pkproj", "pkant", "rklive",
	"rktest", "rkproj", "rkant", "whsec", "ghp", "gho", "ghu", "ghs", "ghr", "githubpat", "xox", "glpat", "rbk"}

func maySecret(lower string) bool { return containsAny(lower, secretHints) }

func mayJoinedSecret(lower string) bool { return containsAny(lower, joinedSecretHints) }

func containsAny(s string, subs []string) bool {
	for _, h := range subs {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

// mayIBAN reports whether text holds two letters then two digits at the start of a word:
// every IBAN starts so, and ibanRE is costly to run on a reply that has none.
func mayIBAN(text string) bool {
	for i := 0; i+4 <= len(text); i++ {
		if i > 0 && isAlnum(text[i-1]) {
			continue
		}
		if isLetter(text[i]) && isLetter(text[i+1]) && isDigit(text[i+2]) && isDigit(text[i+3]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// minSpokenDigits is the fewest number words spokenDigitsRE can match (six, then one more).
const minSpokenDigits = 7

// spokenDigitWords counts the words of lower that spokenDigitsRE is made of, stopping at
// minSpokenDigits: with fewer, it cannot match.
func spokenDigitWords(lower string) int {
	n := 0
	for i := 0; i < len(lower); {
		if lower[i] < 'a' || lower[i] > 'z' {
			i++
			continue
		}
		j := i + 1
		for j < len(lower) && lower[j] >= 'a' && lower[j] <= 'z' {
			j++
		}
		if spokenDigitWord[lower[i:j]] {
			if n++; n >= minSpokenDigits {
				break
			}
		}
		i = j
	}
	return n
}

var spokenDigitWord = map[string]bool{"zero": true, "oh": true, "one": true, "two": true, "three": true, "four": true, "five": true,
	"six": true, "seven": true, "eight": true, "nine": true, "double": true, "triple": true}

func placeholder(kind string) string {
	switch kind {
	case KindEmail:
		return "an email address"
	case KindPhone:
		return "a phone number"
	case KindTerm:
		return "someone"
	case KindURL:
		return "a link"
	}
	return "something private"
}

// truncate cuts at a sentence or word boundary within max runes.
func truncate(s string, max int) string {
	rs := []rune(s)
	cut := string(rs[:max])
	if i := strings.LastIndexAny(cut, ".!?"); i > max/2 {
		return cut[:i+1]
	}
	cut = string(rs[:max-1]) // room for the closing full stop
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "."
}
