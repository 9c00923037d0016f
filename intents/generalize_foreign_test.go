package intents

import "testing"

// The languages of foreign.yaml besides Spanish: each switches a room's light or AC, tells the
// time, stops, thanks or greets, calls mom and starts a game; negated, reported or quoted, the
// same words act on nothing.

// TestForeignHindi: Hindi/Urdu as typed in Latin script, verb last, with English nouns.
func TestForeignHindi(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"rasoi ki batti bujhao", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"kitchen ki light band karo", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"bachchon ke kamre ki light band karo", "house.light.set", map[string]string{"room": "kids room", "state": "off"}},
		{"kamre ka ac chalu karo", "house.ac.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"kitne baje hai", "time.now", nil},
		{"aaj kaunsa din hai", "date.today", nil},
		{"chup", "robot.stop", nil},
		{"bas karo", "robot.stop", nil},
		{"bas", "robot.stop", nil},
		{"shukriya", "smalltalk.thanks", nil},
		{"shubh ratri", "smalltalk.good_night", nil},
		{"mummy ko phone karo", "teleport.call", map[string]string{"person": "mom"}},
		{"chalo chhupan chhupai khelte hain", "play.hide", nil},
		{"pathar kagaz kainchi khelo", "play.rps", nil},
		{"das minute ka timer lagao", "timer.start", map[string]string{"duration": "600"}},
	})
	checkNeverActs(t, tb, []string{
		"rasoi ki light band mat karo",
		"mummy ne kaha light band karo",
		`usne kaha "light band karo"`,
		"police ko bulao", // the robot cannot call out
	})
}

// TestForeignTagalog: Tagalog, with "po" said for politeness.
func TestForeignTagalog(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"patayin ang ilaw sa kusina", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"buksan ang ilaw sa kwarto po", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"patayin ang aircon sa kwarto", "house.ac.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"anong oras na po", "time.now", nil},
		{"tama na", "robot.stop", nil},
		{"salamat po", "smalltalk.thanks", nil},
		{"tawagan mo si nanay", "teleport.call", map[string]string{"person": "mom"}},
		{"maglaro tayo ng tagu taguan", "play.hide", nil},
		{"jack en poy tayo", "play.rps", nil},
		{"mag timer ng sampung minuto", "timer.start", map[string]string{"duration": "600"}},
	})
	checkNeverActs(t, tb, []string{
		"huwag patayin ang ilaw sa kusina",
		"wag mong patayin ang ilaw",
		"sabi ni nanay patayin ang ilaw",
		`sabi niya "patayin ang ilaw"`,
		"huwag tawagan si nanay",
	})
}

// TestForeignPolish: Polish, with and without its diacritics.
func TestForeignPolish(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"wyłącz światło w kuchni", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"wlacz swiatlo w sypialni", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"wylacz klimatyzacje w salonie", "house.ac.set", map[string]string{"room": "living room", "state": "off"}},
		{"która godzina", "time.now", nil},
		{"cicho", "robot.stop", nil},
		{"dziękuję", "smalltalk.thanks", nil},
		{"dzien dobry", "greeting", nil},
		{"dobranoc", "smalltalk.good_night", nil},
		{"zadzwoń do mamy", "teleport.call", map[string]string{"person": "mom"}},
		{"zagrajmy w chowanego", "play.hide", nil},
		{"kamien papier nozyce", "play.rps", nil},
		{"ustaw minutnik na dziesięć minut", "timer.start", map[string]string{"duration": "600"}},
	})
	checkNeverActs(t, tb, []string{
		"nie wyłączaj światła w kuchni",
		"nie włączaj światła",
		"mama powiedziała wyłącz światło",
		`powiedziała "wyłącz światło"`,
		"nie dzwoń do mamy",
		"wezwij karetkę", // the robot cannot call out
	})
}

// TestForeignFrench: French.
func TestForeignFrench(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"éteins la lumière de la cuisine", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"allume la lumière de la chambre des enfants", "house.light.set", map[string]string{"room": "kids room", "state": "on"}},
		{"allume la lumière du salon", "house.light.set", map[string]string{"room": "living room", "state": "on"}},
		{"éteins la clim de la chambre", "house.ac.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"allume la clim du salon", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"quelle heure est-il", "time.now", nil},
		{"quel jour sommes-nous", "date.today", nil},
		{"tais-toi", "robot.stop", nil},
		{"merci", "smalltalk.thanks", nil},
		{"bonne nuit", "smalltalk.good_night", nil},
		{"appelle maman", "teleport.call", map[string]string{"person": "mom"}},
		{"jouons à cache-cache", "play.hide", nil},
		{"pierre feuille ciseaux", "play.rps", nil},
		{"mets un minuteur de dix minutes", "timer.start", map[string]string{"duration": "600"}},
	})
	checkNeverActs(t, tb, []string{
		"n'éteins pas la lumière de la cuisine",
		"maman a dit éteins la lumière",
		"elle a dit « éteins la lumière »",
		`il a dit "appelle maman"`,
		"ne pas appeler maman",
	})
}

// TestForeignPortuguese: Portuguese ("apaga a luz da cozinha, por favor" is read as
// Portuguese, not as Spanish: Portuguese reads more of it).
func TestForeignPortuguese(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"apaga a luz da cozinha", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"Apaga a luz da cozinha, por favor!", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"acende a luz do quarto", "house.light.set", map[string]string{"room": "bedroom", "state": "on"}},
		{"desliga o ar condicionado do quarto", "house.ac.set", map[string]string{"room": "bedroom", "state": "off"}},
		{"que horas são", "time.now", nil},
		{"obrigada", "smalltalk.thanks", nil},
		{"boa noite", "smalltalk.good_night", nil},
		{"liga para a mãe", "teleport.call", map[string]string{"person": "mom"}},
		{"vamos brincar de esconde-esconde", "play.hide", nil},
		{"pedra papel e tesoura", "play.rps", nil},
		{"põe um temporizador de dez minutos", "timer.start", map[string]string{"duration": "600"}},
		{"põe um temporizador de meia hora", "timer.start", map[string]string{"duration": "1800"}},
	})
	checkNeverActs(t, tb, []string{
		"não apaga a luz da cozinha",
		"a mãe disse apaga a luz",
		`ela disse "apaga a luz"`,
		"não liga para a mãe",
		"chama a polícia", // the robot cannot call out
	})
}

// TestForeignGerman: German, with its verbs that part ("mach das Licht ... aus").
func TestForeignGerman(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"mach das Licht in der Küche aus", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"mach das Licht im Wohnzimmer an", "house.light.set", map[string]string{"room": "living room", "state": "on"}},
		{"wie spät ist es", "time.now", nil},
		{"danke", "smalltalk.thanks", nil},
		{"gute nacht", "smalltalk.good_night", nil},
		{"ruf Mama an", "teleport.call", map[string]string{"person": "mom"}},
		{"lass uns verstecken spielen", "play.hide", nil},
		{"schere stein papier", "play.rps", nil},
		{"stell einen Timer auf zehn Minuten", "timer.start", map[string]string{"duration": "600"}},
	})
	checkNeverActs(t, tb, []string{
		"mach das licht nicht aus",
		"Mama hat gesagt mach das Licht aus",
		`sie hat gesagt "mach das Licht aus"`,
		"ruf mama nicht an",
	})
}

// TestForeignArabic: Arabic greetings, thanks and house words in Latin script.
func TestForeignArabic(t *testing.T) {
	tb := demo(t)
	checkRoutes(t, tb, []routeCase{
		{"taffi el daw fil matbakh", "house.light.set", map[string]string{"room": "kitchen", "state": "off"}},
		{"shaghghil el mukayyif fil salon", "house.ac.set", map[string]string{"room": "living room", "state": "on"}},
		{"kam el sa'a", "time.now", nil},
		{"khalas", "robot.stop", nil},
		{"marhaba", "greeting", nil},
		{"shukran", "smalltalk.thanks", nil},
		{"ma'a salama", "smalltalk.goodbye", nil},
		{"tisbah ala khair", "smalltalk.good_night", nil},
		{"ittasil bi mama", "teleport.call", map[string]string{"person": "mom"}},
		{"hajar warqa maqas", "play.rps", nil},
	})
	checkNeverActs(t, tb, []string{
		"la tutfi el daw",
		"mama qalat taffi el daw",
		`qalat "taffi el daw"`,
		"la tittasil bi ummi",
	})
}
