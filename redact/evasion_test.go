package redact

import (
	"strings"
	"testing"
)

// The evasions of issue 25 item 9 and the class around them: a secret, credential, phone,
// card or e-mail address hidden from the patterns by invisible characters, look-alike letters,
// spacing, splitting into short runs, markup, or digits said as words. Each must leave
// Speakable (the boundary every spoken text passes) without any of its leak fragments, in any
// case, with the invisible characters taken out (that is what a listener hears).
var evasions = []struct {
	name, text string
	leaks      []string
}{
	// Format characters inside a secret: espeak reads every character, the pattern saw none.
	{"zwsp in key", "The key is sk-\u200bproj-Tq4Wz8Xc2Vb6\u200bNm1Lk5Jh9Gf3Ds7Ap0.", []string{"Tq4Wz8Xc", "Nm1Lk5Jh"}},
	{"soft hyphens", "Use sk_live_4eC39\u00adHqLyj\u00adWDarj\u00adtT1zdp7dc now.", []string{"4eC39", "HqLyj", "tT1zdp7dc"}},
	{"word joiner", "token ghp_\u2060abcdefghij\u2060klmnopqrst\u2060uvwxyz012345", []string{"abcdefghij", "uvwxyz012345"}},
	{"bidi and bom", "AKIA\u202eIOSF\ufeffODNN7\u200eEXAMPLE is the key", []string{"IOSF", "ODNN7", "EXAMPLE"}},
	{"variation selectors", "s\ufe0fk\ufe0f-\ufe0fTq4Wz8Xc2Vb6Nm1Lk5Jh9Gf3", []string{"Tq4Wz8Xc2Vb6"}},
	{"tag characters", "xoxb-\U000E0041123456789012-\U000E0042abcdefghijkl", []string{"123456789012", "abcdefghijkl"}},
	{"combining marks", "s\u0336k\u0336-\u0336proj-Tq4Wz8Xc2Vb6Nm1Lk5Jh9Gf3", []string{"Tq4Wz8Xc2Vb6"}},
	{"zwj in phone", "Call 415\u200d555\u200d0134 tonight.", []string{"0134", "4155550134"}},
	{"soft hyphen in email", "Mail jane\u00ad.doe@exam\u00adple.com today.", []string{"jane", "example"}},
	{"cyrillic lookalikes", "The key is ѕk-рrој-Tq4Wz8Xc2Vb6Nm1Lk5Jh9Gf3Ds7Ap0.", []string{"Tq4Wz8Xc2Vb6"}},
	{"nbsp and thin spaces in phone", "Her number is 415\u00a0555\u20090134.", []string{"0134"}},
	{"ideographic space card", "Card 4111\u30001111\u30001111\u30001111 please", []string{"1111"}},
	{"line separator in phone", "Dial 415\u2028555\u20290134", []string{"0134"}},
	{"minus-sign dashes", "Ring 415\u2212555\u22120134 now", []string{"0134"}},
	// Spacing and splitting.
	{"spaced key", "s k - p r o j - T q 4 W z 8 X c 2 V b 6 N m 1 L k 5 J h 9 G f 3", []string{"T q 4 W", "N m 1 L"}},
	{"short runs", "The key is 4eC3 9HqL yjWD arjt T1zd p7dc, keep it.", []string{"4eC3", "9HqL", "T1zd", "p7dc"}},
	{"runs of five", "sk_live_ 4eC39 HqLyj WDarj tT1zd p7dc", []string{"4eC39", "HqLyj", "tT1zd"}},
	{"dotted runs", "Session 9fQ2.xLr7.Tb0k.Zp4W.m8Yc.3Vn6 is active", []string{"9fQ2", "Tb0k", "3Vn6"}},
	{"slashed runs", "token: 9fQ2 / xLr7 / Tb0k / Zp4W / m8Yc / 3Vn6", []string{"9fQ2", "Tb0k", "3Vn6"}},
	{"prefix spaced out", "g h p _ a b c d e f g h i j k l m n o p q r s t 0 1 2 3", []string{"a b c d e f", "0 1 2 3"}},
	{"spaced aws key", "A K I A I O S F O D N N 7 E X A M P L E", []string{"I O S F O D N N"}},
	{"aws key in runs", "AKIA IOSF ODNN 7EXA MPLE", []string{"IOSF", "ODNN", "7EXA"}},
	{"github key in runs", "ghp_abcd efgh ijkl mnop qrst uvwx yz01 2345", []string{"efgh", "yz01", "2345"}},
	{"slack token in runs", "xoxb - 1234 5678 9012 - AbCd EfGh IjKl", []string{"5678", "9012", "IjKl"}},
	{"split across a sentence end", "My key is sk-proj-Tq4Wz8Xc. 2Vb6Nm1L. k5Jh9Gf3Ds7Ap0.", []string{"Tq4Wz8Xc", "2Vb6Nm1L", "k5Jh9Gf3"}},
	// Markup around a prefix: stripping removes the underscores the pattern needs.
	{"sk_live with code ticks", "The key is `sk_live_`**4eC39HqLyjWDarjtT1zdp7dc**.", []string{"4eC39HqLyj", "tT1zdp7dc"}},
	{"sk_live with emphasis", "Use _sk_live_ _abcdefghijklmnop1234_ for billing.", []string{"abcdefghijklmnop1234"}},
	{"ghp with bold pieces", "**ghp**_**abcdefghij**klmnopqrst**uvwxyz0123456789**", []string{"abcdefghij", "uvwxyz0123456789"}},
	{"html tags inside a key", "Key: sk-proj-<b>Tq4Wz8Xc</b>2Vb6Nm1Lk5Jh9Gf3Ds7Ap0", []string{"Tq4Wz8Xc", "2Vb6Nm1Lk5"}},
	{"markup-split random token", "Code `9fQ2xLr7`**Tb0kZp4W**`m8Yc3Vn6Hs1D`", []string{"9fQ2xLr7", "Tb0kZp4W", "m8Yc3Vn6"}},
	// Phone and card numbers spaced, dotted, dashed, or said as words.
	{"spaced phone digits", "Call 4 1 5 5 5 5 0 1 3 4 tonight.", []string{"4 1 5 5 5 5 0 1 3 4", "0 1 3 4"}},
	{"dashed phone digits", "Call 4-1-5-5-5-5-0-1-3-4.", []string{"0-1-3-4"}},
	{"dotted phone digits", "Number: 4.1.5.5.5.5.0.1.3.4", []string{"0.1.3.4"}},
	{"pairs", "Ring her on 41 55 55 01 34.", []string{"55 01 34"}},
	{"french pairs", "Appelle le 01 42 68 53 00 demain.", []string{"42 68 53"}},
	{"odd grouping", "The number is 4155 550 134.", []string{"4155", "550 134"}},
	{"comma-spelled digits", "It's 4, 1, 5, 5, 5, 5, 0, 1, 3, 4.", []string{"0, 1, 3, 4"}},
	{"words and digits mixed", "Dial four 1 five 5 five 5 oh 1 three 4", []string{"oh 1 three 4"}},
	{"number words with tens", "Call forty one, fifty five, fifty five, oh one, thirty four.", []string{"fifty five, oh one"}},
	{"double and triple", "It's four one five triple five oh one three four", []string{"triple five oh one"}},
	{"spaced card", "Card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 exp soon", []string{"1 1 1 1 1 1 1 1"}},
	{"card in threes", "Use 411 111 111 111 1111 for it.", []string{"411 111 111"}},
	{"uk number spaced", "Ring 0 2 0 7 9 4 6 0 9 5 8 please", []string{"9 4 6 0 9 5 8"}},
	{"plus prefixed groups", "Call +44 20 79 46 09 58 now.", []string{"79 46 09 58"}},
	// E-mail addresses spaced out.
	{"spaced email", "Write to j a n e @ e x a m p l e . c o m today.", []string{"j a n e", "e x a m p l e"}},
	{"dotted card", "Card 4111.1111.1111.1111 on file", []string{"1111.1111"}},
	{"mixed separators card", "Use 4111-1111 1111.1111 tonight", []string{"1111 1111"}},
	{"email at in words", "Write to jane.doe at example.com today.", []string{"jane.doe"}},
	{"spelled iban", "Send it to G B 8 2 W E S T 1 2 3 4 5 6 9 8 7 6 5 4 3 2 please.", []string{"W E S T", "9 8 7 6"}},
	// Credentials stated in words.
	{"pin without a verb", "Her PIN 4821 opens it.", []string{"4821"}},
	{"password after a dash", "WiFi password — hunter2hunter2", []string{"hunter2hunter2"}},
	{"wifi password", "the wifi password is hunter2hunter2", []string{"hunter2hunter2"}},
	{"password passphrase", "The password is correct horse battery staple.", []string{"correct horse battery staple"}},
	{"guest network password", "The password for the guest network is Sunflower77, enjoy.", []string{"Sunflower77"}},
	{"quoted password", "Your password is \"tr0ub4dor & 3\" so type carefully.", []string{"tr0ub4dor"}},
	{"spelled password", "The wifi password is h u n t e r 2 h u n t e r 2.", []string{"h u n t e r 2"}},
	{"split password", "the router password is hunter 2 hunter 2", []string{"hunter 2 hunter 2"}},
	{"pin", "Her PIN is 4821.", []string{"4821"}},
	{"pin spaced", "My pin number is 4 8 2 1, don't tell.", []string{"4 8 2 1"}},
	{"pin as words", "The PIN is four eight two one.", []string{"four eight two one"}},
	{"door code", "The door code is 1 9 7 4 #.", []string{"1 9 7 4"}},
	{"alarm code", "The alarm code's 0000.", []string{"0000"}},
	{"bare code", "The code is 739214.", []string{"739214"}},
	{"verification code", "Your verification code is X7K9P2.", []string{"X7K9P2"}},
	{"combination", "The combination is 12-34-56.", []string{"12-34-56", "34"}},
	{"passcode colon", "Passcode: blue-falcon-42", []string{"blue-falcon-42", "falcon"}},
	{"cvv", "The CVV is 737 on the back.", []string{"737"}},
	{"wifi password was", "The Wi-Fi password was Maple-Tree-2019 before.", []string{"Maple-Tree-2019", "2019"}},
	{"password with format chars", "the wifi pass\u200bword is hun\u00adter2hun\u200bter2", []string{"hunter2hunter2"}},
	{"password possessive", "the admin password's Pa55w0rd!", []string{"Pa55w0rd"}},
	{"secret word", "The secret word is pineapple.", []string{"pineapple"}},
	{"otp dashed", "Your one-time code is 482-913.", []string{"482-913", "913"}},
}

func TestEvasionsAreRedacted(t *testing.T) {
	r := corpusRedactor(t)
	for _, c := range evasions {
		t.Run(c.name, func(t *testing.T) {
			res, err := r.Speakable(c.text)
			if err != nil {
				t.Fatal(err)
			}
			heard := strings.ToLower(canonical(res.Text))
			for _, leak := range c.leaks {
				if strings.Contains(heard, strings.ToLower(leak)) {
					t.Errorf("%q survives in %q", leak, res.Text)
				}
			}
			if len(res.Kinds) == 0 {
				t.Errorf("no redaction reported for %q -> %q", c.text, res.Text)
			}
			for _, ch := range res.Text {
				if invisible(ch) {
					t.Errorf("an invisible character %U is left in %q", ch, res.Text)
				}
			}
		})
	}
	if len(evasions) < 60 {
		t.Fatalf("%d evasions, want at least 60", len(evasions))
	}
}

// Ordinary sentences that must come out unchanged: numbers, times, quantities and the words
// "password", "code" and "PIN" used as words. A false positive costs the family an answer.
var ordinary = []string{
	"It's 7:45 in the morning and 21 degrees outside.",
	"The oven should be at 180 degrees for 25 to 30 minutes.",
	"Add 2 cups of flour, 1 1/2 teaspoons of salt and 3 eggs.",
	"Room 101 is down the hall, next to rooms 102 and 103.",
	"The years 1914 to 1918 and 1939 to 1945 were terrible.",
	"Between 1990 1995 and 2000 a lot changed.",
	"The Lost numbers are 4 8 15 16 23 42.",
	"The winning numbers were 4, 8, 15, 16, 23 and 42.",
	"Let's count: 1 2 3 4 5 6 7 8 9 10!",
	"Count with me: one, two, three, four, five, six, seven, eight, nine, ten.",
	"Ten, nine, eight, seven, six, five, four, three, two, one, lift off!",
	"Today is 2026-12-01 and tomorrow is 02/12/2026.",
	"The router is usually at 192.168.1.1 on a home network.",
	"The speed of light is 299,792,458 metres per second.",
	"Pi is 3.14159 and e is about 2.71828.",
	"It was 1,234,567 dollars in 2023.",
	"A football pitch is 105 by 68 metres.",
	"The score was 21 18 after the first set.",
	"The iPhone 15 Pro, iPad Air M2 and MacBook M3 came out recently.",
	"An RTX 4090, RX 7900 XTX, A100 80GB and H100 SXM5 are graphics cards.",
	"Glucose is C6H12O6 and water is H2O.",
	"The 3D TV has 4K, HDR10 and 120Hz.",
	"SK-II is a skincare brand and SK Telecom is a company in Korea.",
	"Your password is too short; use at least 12 characters.",
	"A strong password is long and random.",
	"The password is case sensitive.",
	"The password is on a sticker under the router.",
	"The password is correct.",
	"The code is written in Python and runs on a Raspberry Pi.",
	"The code is 200 lines long.",
	"Morse code is a way to send letters as dots and dashes.",
	"The pin is in the drawer next to the needles.",
	"The combination is perfect for a summer salad.",
	"The area code is 415 for San Francisco.",
	"A PIN is usually 4 digits long.",
	"Spell it with me: C A T.",
	"M I S S I S S I P P I is a long word to spell.",
	"Nineteen eighty four is a novel by George Orwell.",
	"Set a timer for 10 minutes at 350 degrees.",
	"Version 1.2.3 fixed the bug in 2024.",
	"The train leaves at 6:15 from platform 9 and arrives at 8:40.",
	"Tokyo is 9 hours ahead and New York 5 hours behind London.",
	"Chapter 12 starts on page 340, chapter 13 on page 372.",
	"It is 2026 and the ISS orbits at about 400 km.",
	"Mount Everest is 8,849 metres tall.",
	"Oh, one more thing: dinner is at six.",
	"Use a password manager and turn on password reset by e-mail.",
	"Enter your PIN code on the keypad.",
	"I'll meet you at the shop at 5.",
	"The store at amazon.com sells it.",
	"Version 3.2.1 and 1.4.7 are out.",
	"If x < 3 and y > 5 then z is 4.",
	"The state-of-the-art-2024 edition came out in May.",
	"Привет means hello in Russian, and Ελλάδα is Greece in Greek.",
	"Café au lait costs 3,50 € in Paris.",
	"Emoji like 👍🏽 and 👨‍👩‍👧 show up in messages.",
}

func TestOrdinarySentencesSurvive(t *testing.T) {
	r := corpusRedactor(t)
	for _, s := range ordinary {
		res, err := r.Speakable(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Kinds) != 0 {
			t.Errorf("ordinary sentence redacted: %q -> %q %v", s, res.Text, res.Kinds)
		}
	}
	if len(ordinary) < 40 {
		t.Fatalf("%d ordinary sentences, want at least 40", len(ordinary))
	}
}
