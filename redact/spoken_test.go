package redact

import (
	"strings"
	"testing"
)

// The leaks of issue 38 item 5 and the classes around them: a secret split by a space or
// across sentences, its separators spelled as words, only its start or its id said, its
// letters in the NATO alphabet; an address said with "at" and "dot"; a phone number said in
// tens or hundreds. None of the leak fragments may be heard.
var spokenEvasions = []struct {
	name, text string
	leaks      []string
}{
	// Split by one space, the first part a whole secret by itself.
	{"ghp split by a space", "Your token is ghp_1a2b3c4d5e6f7g8h9i0j KLMNOPQRSTUVWXYZ12 ok", []string{"KLMNOPQRSTUVWXYZ12", "1a2b3c4d"}},
	{"sk_live split by a space", "Use sk_live_4eC39HqLyjWDarjtT1zdp7dc 9Xy2Wq for billing", []string{"4eC39HqL", "9Xy2Wq"}},
	{"aws key and its rest", "The key AKIAIOSFODNN7EXAMPLE then Q2x9Ty4u for the region.", []string{"IOSFODNN", "Q2x9Ty4u"}},
	// Split across sentences.
	{"sk_live across sentences", "The key starts with sk_live_4eC39HqL. The rest is yjWDarjtT1zdp7dc.", []string{"4eC39HqL", "yjWDarjtT1zdp7dc"}},
	{"ghp across sentences", "The key starts with ghp_abcd1234. It ends with efgh5678ijkl9012mnop.", []string{"abcd1234", "efgh5678"}},
	{"token across sentences", "Your API token begins 9fQ2xLr7Tb0k. Then comes Zp4Wm8Yc3Vn6.", []string{"9fQ2xLr7Tb0k", "Zp4Wm8Yc3Vn6"}},
	// Separators spelled out.
	{"underscore words", "It is sk underscore live underscore 4eC39HqLyjWDarjtT1zdp7dc", []string{"4eC39HqL", "sk underscore live"}},
	{"dash words", "sk dash proj dash Tq4Wz8Xc2Vb6Nm1Lk5Jh9Gf3", []string{"Tq4Wz8Xc", "sk dash proj"}},
	{"ghp underscore", "Type ghp underscore abcdefghij0123456789klmnopqrst to log in", []string{"abcdefghij0123", "ghp underscore"}},
	{"hyphen words", "The slack token is xoxb hyphen 123456789012 hyphen AbCdEfGhIjKl", []string{"123456789012", "AbCdEfGhIjKl"}},
	{"glpat spelled", "glpat dash x7Yq2Lm9Pz4Rk8Wd3Ns6 is the token", []string{"x7Yq2Lm9"}},
	// Partial ids.
	{"sk_live start only", "The key is sk_live_4eC3", []string{"4eC3", "sk_live"}},
	{"ghp start only", "its id is ghp_abcd", []string{"abcd", "ghp_"}},
	{"device token id", "the token id is rbk_0123456789abcdef", []string{"0123456789abcdef"}},
	{"bare token id", "the token's id is 0123456789abcdef, revoke it", []string{"0123456789abcdef"}},
	{"uuid", "Your key is 123e4567-e89b-12d3-a456-426614174000.", []string{"e89b", "426614174000"}},
	{"sk_live whole", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", []string{"sk_live", "sklive", "4eC39"}},
	// NATO alphabet.
	{"nato sk_live", "sierra kilo underscore lima india victor echo underscore four echo charlie three nine hotel quebec lima", []string{"four echo charlie", "hotel quebec"}},
	{"nato sk-proj", "It's Sierra Kilo dash Papa Romeo Oscar Juliet dash Tango Quebec Four Whiskey Zulu Eight X-ray Charlie Two", []string{"Tango Quebec", "Charlie Two"}},
	{"nato random", "The code is Alpha 7 Bravo 9 Charlie 3 Delta 5 Echo", []string{"Bravo 9 Charlie", "7"}},
	{"nato with digit words", "Spell it: Golf Hotel Papa underscore Four Kilo Nine Mike Two Lima Seven Quebec Uniform", []string{"Four Kilo Nine", "Lima Seven"}},
	{"capital letters said", "the password is capital Tango seven echo capital X-ray nine bravo four", []string{"seven echo", "nine bravo"}},
	// E-mail said with at and dot.
	{"at dot dev", "Write to jane at example dot dev", []string{"jane", "example"}},
	{"at dot other tld", "mail hello at reachy dot ai soon", []string{"hello at", "reachy"}},
	{"dotted mailbox", "Write to jane dot doe at gmail dot com", []string{"jane", "gmail"}},
	{"underscore mailbox", "mail jane underscore doe at proton dot me", []string{"jane", "proton"}},
	{"spelled mailbox", "Write to j a n e at e x a m p l e dot com", []string{"j a n e", "e x a m p l e"}},
	// More of the same classes.
	{"aws prefix apart", "AKIA IOSFODNN7EXAMPLE is the key", []string{"IOSFODNN7"}},
	{"two parts labelled", "First part: ghp_abcd. Second part: efgh1234ijkl.", []string{"abcd", "efgh1234ijkl"}},
	{"spelled slack token", "x o x b dash 1234567890 dash abcdefghijkl", []string{"1234567890", "abcdefghijkl"}},
	{"nato variants", "Alfa Juliett Xray seven nine two Kilo Lima", []string{"Juliett Xray", "Kilo Lima"}},
	{"spelled capitals", "Here it is: S K underscore L I V E underscore 4 E C 3 9 H Q L Y J W D", []string{"4 E C 3", "H Q L"}},
	{"nato password", "my password is tango romeo oscar uniform bravo four dash two", []string{"tango romeo", "four dash two"}},
	{"secret in two runs", "the secret is 4eC39HqL yjWDarjt", []string{"4eC39HqL", "yjWDarjt"}},
	{"hyphenated mailbox", "jane-doe at mail dot example dot org", []string{"jane", "doe", "example"}},
	{"webhook secret spelled", "whsec underscore abc123def456ghi789", []string{"abc123def456"}},
	// Phone numbers said in tens or hundreds.
	{"tens", "Call four fifteen, five fifty five, zero one thirty four", []string{"fifteen", "thirty four"}},
	{"tens hyphenated", "Call forty-one fifty-five fifty-five oh-one thirty-four", []string{"fifty-five", "thirty-four"}},
	{"hundred at the end", "Call four one five, five five five, zero one hundred", []string{"hundred", "five five five"}},
	{"eight hundred", "The number is eight hundred five five five one two one two", []string{"eight hundred", "one two one two"}},
}

// Ordinary sentences near those classes that must come out unchanged.
var spokenOrdinary = []string{
	"Add a dash of salt and a pinch of pepper.",
	"The Delta flight to Lima leaves at nine.",
	"Charlie, Oscar and Victor are coming to dinner.",
	"Alpha Bravo Charlie Delta Echo Foxtrot is how the NATO alphabet starts.",
	"Meet me at the hotel at five.",
	"It's five point two kilometres to the station.",
	"The score was two dash one at half time.",
	"Type slash help to see the commands.",
	"X-ray machines use radiation.",
	"Romeo and Juliet is a play by Shakespeare.",
	"Hotel California is a song by the Eagles.",
	"My favourite golf club is the seven iron.",
	"Sierra Leone and Victoria Falls are in Africa.",
	"Go to example dot com for more.",
	"Look at this dot com bubble chart.",
	"The store at amazon.com sells it.",
	"Nineteen hundred eighty four was a leap year.",
	"Two hundred fifty people came.",
	"The API key should be kept in a password manager and rotated every 90 days.",
	"Your token works with the iPhone15, the RTX4090 and the H100.",
	"Use the key for the MacBook Pro and the PlayStation5.",
	"The password must be at least 12 characters long.",
	"The colour is ff0000 and the hash starts with deadbeef.",
	"The monkey ate 3 bananas at 10am.",
	"The ghost story begins at midnight.",
	"Ask the kids to work on their homework, thanks.",
	"Our UK office is in Leeds; the SK team is in Seoul.",
	"Version 2.4.1 is out, and the token limit is 4096.",
}

func TestSpokenEvasionsAreRedacted(t *testing.T) {
	r := corpusRedactor(t)
	for _, c := range spokenEvasions {
		t.Run(c.name, func(t *testing.T) {
			res, err := r.Speakable(c.text)
			if err != nil {
				t.Fatal(err)
			}
			heard := strings.ToLower(res.Text)
			for _, leak := range c.leaks {
				if strings.Contains(heard, strings.ToLower(leak)) {
					t.Errorf("%q survives in %q", leak, res.Text)
				}
			}
			if len(res.Kinds) == 0 {
				t.Errorf("no redaction reported for %q -> %q", c.text, res.Text)
			}
		})
	}
}

func TestSpokenOrdinarySentencesSurvive(t *testing.T) {
	r := corpusRedactor(t)
	for _, s := range spokenOrdinary {
		res, err := r.Speakable(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Kinds) != 0 {
			t.Errorf("ordinary sentence redacted: %q -> %q %v", s, res.Text, res.Kinds)
		}
	}
}
