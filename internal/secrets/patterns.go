package secrets

import (
	"encoding/base64"
	"strings"
	"unicode"

	"github.com/mem-dev/mem/internal/lazyregexp"
)

// pattern is one kind of credential found on a single line.
type pattern struct {
	name  string
	re    *lazyregexp.Regexp
	group int                 // submatch holding the secret (0: the whole match)
	hints []string            // the lowercased line must contain one of these for re to run
	gate  *lazyregexp.Regexp  // when set, the line must match it too
	ok    func([]string) bool // when set, vets the submatches
}

// A private key block is reported on its BEGIN line, but only when key
// material follows: a sentence that merely names the header is not a key.
var (
	privateKeyRE = lazyregexp.New(`-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----`)
	privateKey   = pattern{name: "private key block"}
	base64Line   = lazyregexp.New(`^[A-Za-z0-9+/=]{20,}`)
)

func keyBodyFollows(rest string, next []string) bool {
	// Inline, as in a JSON or .env value: "-----BEGIN …-----\nMIIE…".
	rest = strings.TrimLeft(rest, ` \t"'`)
	for strings.HasPrefix(rest, `\n`) || strings.HasPrefix(rest, `\r`) {
		rest = strings.TrimLeft(rest[2:], " \t")
	}
	if base64Line.MatchString(rest) {
		return true
	}
	seen := 0
	for _, l := range next[:min(len(next), 6)] {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), `>"'`))
		if l == "" || strings.Contains(l, ": ") { // blank, or Proc-Type:/DEK-Info: headers
			continue
		}
		if seen++; seen > 1 {
			return false
		}
		if base64Line.MatchString(l) {
			return true
		}
	}
	return false
}

func bodyRandom(prefixLen int) func([]string) bool {
	return func(m []string) bool { return random(m[0][prefixLen:]) }
}

func mixedRandom(m []string) bool { return mixed(m[1]) }

// mixed reports whether s is random and holds upper and lower case letters
// and digits, as a generated key does.
func mixed(s string) bool {
	u, l, d := classes(s)
	return u && l && d && random(s)
}

// patterns run in this order, most specific first; a later pattern does not
// report a span an earlier one did.
var patterns = []*pattern{{
	name:  "AWS access key id",
	hints: []string{"akia", "asia", "abia", "acca"},
	re:    lazyregexp.New(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
	ok:    bodyRandom(4),
}, {
	name:  "AWS secret access key",
	hints: []string{"secret"},
	gate:  lazyregexp.New(`(?i)aws.{0,20}secret|secret.?access.?key`),
	re:    lazyregexp.New(`(?:^|[^A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+=])`),
	group: 1,
	ok:    mixedRandom,
}, {
	name:  "GitHub token",
	hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
	re:    lazyregexp.New(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b`),
	ok:    bodyRandom(4),
}, {
	name:  "GitHub token",
	hints: []string{"github_pat_"},
	re:    lazyregexp.New(`\bgithub_pat_[A-Za-z0-9_]{40,}\b`),
	ok:    bodyRandom(11),
}, {
	name:  "GitLab token",
	hints: []string{"glpat-"},
	re:    lazyregexp.New(`\bglpat-[A-Za-z0-9_-]{20,}`),
	ok:    bodyRandom(6),
}, {
	name:  "Slack token",
	hints: []string{"xox"},
	re:    lazyregexp.New(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
	ok:    bodyRandom(5),
}, {
	name:  "Slack webhook URL",
	hints: []string{"hooks.slack.com"},
	re:    lazyregexp.New(`https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{20,}`),
}, {
	// Test keys are secrets too: they reach a real account, and a test key
	// in git teaches the habit that puts the live one there. Publishable
	// keys (pk_live_) are public by design and not reported.
	name:  "Stripe secret key",
	hints: []string{"k_live_", "k_test_"},
	re:    lazyregexp.New(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
	ok:    bodyRandom(8),
}, {
	name:  "Stripe webhook signing secret",
	hints: []string{"whsec_"},
	re:    lazyregexp.New(`\bwhsec_[A-Za-z0-9+/=]{20,}`),
	ok:    bodyRandom(6),
}, {
	name:  "Anthropic API key",
	hints: []string{"sk-ant-"},
	re:    lazyregexp.New(`\bsk-ant-[A-Za-z0-9_-]{20,}`),
	ok:    bodyRandom(7),
}, {
	name:  "OpenAI API key",
	hints: []string{"sk-"},
	re:    lazyregexp.New(`\bsk-((?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})`),
	ok: func(m []string) bool {
		// sk-learn-compatible-…, sk-xxx: a key is random, in mixed case.
		return !strings.HasPrefix(m[1], "ant-") && mixedRandom(m)
	},
}, {
	name:  "Google API key",
	hints: []string{"aiza"},
	re:    lazyregexp.New(`\bAIza[0-9A-Za-z_-]{35}`),
	ok:    bodyRandom(4),
}, {
	name:  "Twilio API key",
	hints: []string{"sk"},
	re:    lazyregexp.New(`\bSK[0-9a-fA-F]{32}\b`),
	ok:    bodyRandom(2),
}, {
	name:  "SendGrid API key",
	hints: []string{"sg."},
	re:    lazyregexp.New(`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`),
}, {
	name:  "npm token",
	hints: []string{"npm_"},
	re:    lazyregexp.New(`\bnpm_[A-Za-z0-9]{36}\b`),
	ok:    bodyRandom(4),
}, {
	name:  "JSON Web Token",
	hints: []string{"eyj"},
	re:    lazyregexp.New(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`),
}, {
	name:  "Mailgun API key",
	hints: []string{"key-"},
	re:    lazyregexp.New(`\bkey-[0-9a-f]{32}\b`),
	ok:    bodyRandom(4),
}, {
	// Mailgun's newer keys are hex in three dashed groups, known by the
	// name they are assigned to rather than by a prefix.
	name:  "Mailgun API key",
	hints: []string{"mailgun"},
	re:    namedKey(`mailgun`, `[A-Za-z0-9_-]{20,}`),
	group: 1,
	ok: func(m []string) bool {
		return random(m[1]) && !placeholderValue(m[1]) && strings.ContainsAny(m[1], "0123456789")
	},
}, {
	name:  "Discord webhook URL",
	hints: []string{"discord"},
	re:    lazyregexp.New(`https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_-]{60,})`),
	ok:    func(m []string) bool { return random(m[1]) },
}, {
	// A bot token is the bot's numeric id, a colon and 35 characters
	// starting with A, often inside the Bot API's URL (…/bot<token>/…).
	name:  "Telegram bot token",
	hints: []string{":a"},
	re:    lazyregexp.New(`(?:^|[^A-Za-z0-9_])(?:bot)?([0-9]{8,10}:A[A-Za-z0-9_-]{32,35})(?:$|[^A-Za-z0-9_-])`),
	group: 1,
	ok:    func(m []string) bool { _, body, _ := strings.Cut(m[1], ":"); return random(body) },
}, {
	name:  "Vault token",
	hints: []string{"hvs.", "hvb.", "hvr."},
	re:    lazyregexp.New(`\bhv[sbr]\.[A-Za-z0-9_-]{24,}`),
	ok:    bodyRandom(4),
}, {
	// The older service tokens, s. and 24 characters, read like a method
	// called on a receiver named s: only a line about Vault or a token is
	// read for them, and never a call.
	name:  "Vault token",
	hints: []string{"s."},
	gate:  lazyregexp.New(`(?i)vault|token`),
	re:    lazyregexp.New(`(?:^|[^A-Za-z0-9_.])(s\.[A-Za-z0-9]{24})(?:$|[^A-Za-z0-9_.(])`),
	group: 1,
	ok:    func(m []string) bool { return mixed(m[1][2:]) },
}, {
	// kubeconfig writes a user's bearer token as a YAML token: key alone on
	// its line; so does any YAML file that holds one. Such a token need not
	// be in mixed case (kubeadm's are lowercase), so it is judged by being
	// random rather than by its classes.
	name:  "kubeconfig token",
	hints: []string{"token:"},
	re:    lazyregexp.New(`^\s*(?:-\s+)?token:\s*["']?([A-Za-z0-9._~+/=:-]{16,})["']?\s*(?:#.*)?$`),
	group: 1,
	ok:    yamlToken,
}, {
	// ~/.docker/config.json keeps each registry's login as "auth", the
	// base64 of user:password.
	name:  "Docker registry auth entry",
	hints: []string{`"auth"`},
	re:    lazyregexp.New(`"auth"\s*:\s*"([A-Za-z0-9+/]{8,}={0,2})"`),
	group: 1,
	ok:    basicCredentials,
}, {
	name:  "Shopify access token",
	hints: []string{"shp"},
	re:    lazyregexp.New(`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`),
	ok:    bodyRandom(6),
}, {
	// A Heroku API key is a UUID, which alone names a request or a record:
	// it is a key when assigned to a Heroku key's name.
	name:  "Heroku API key",
	hints: []string{"heroku"},
	re:    namedKey(`heroku`, `[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`),
	group: 1,
	ok:    func(m []string) bool { return random(m[1]) },
}, {
	name:  "age secret key",
	hints: []string{"age-secret-key-1"},
	re:    lazyregexp.New(`\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b`),
	ok:    bodyRandom(16),
}, {
	name:  "connection string with an inline password",
	hints: []string{"://"},
	re:    lazyregexp.New(`\b[A-Za-z][A-Za-z0-9+.-]*://([^\s:/@'"<>]*):([^\s/@'"]+)@[^\s/'"]+`),
	ok:    func(m []string) bool { return !placeholderPassword(m[1], m[2]) },
}, {
	// A token written right after a credential word: TOKEN=…,
	// "api_key": "…", password is …, Bearer ….
	name:  "high-entropy token next to a credential word",
	hints: []string{"key", "secret", "token", "passw", "pwd", "credential", "bearer"},
	re: lazyregexp.New(`(?i)(?:key|secret|token|passw(?:or)?d|pwd|credential|bearer)[A-Za-z0-9_-]*` +
		`((?:["'\x60]?\s*(?::=|=>|[:=])|\s+(?:is|was|=)?)\s*)["'\x60]?([A-Za-z0-9+/=_.~-]{20,})([(\[]?)`),
	group: 2,
	ok:    genericToken,
}, {
	// A password is written by a person: short, and often a word with a
	// digit, so it is judged by what it is assigned to, not by entropy.
	name:  "password",
	hints: []string{"pass", "pwd"},
	re: lazyregexp.New(`(?i)([A-Za-z0-9_.-]*(?:pass|pwd)[A-Za-z0-9_.-]*)["'\x60]?` +
		`(\s*(?::=|=>|[:=])\s*|\s+(?:(?:for|of|on|to)(?:\s+\S+){1,3}\s+)?(?:is|was)\s*:?\s*|\s+)` +
		`(["'\x60]?)([^\s"'\x60]+)(["'\x60]?)(.*)`),
	group: 4,
	ok:    passwordValue,
}, {
	name:  "password",
	hints: []string{"mysql", "mariadb"},
	re:    lazyregexp.New(`(?:^|\s)-p["']?([^\s"'-][^\s"']{5,})`),
	group: 1,
	ok:    func(m []string) bool { return !placeholderValue(m[1]) },
}, {
	name:  "HTTP basic credentials",
	hints: []string{"basic"},
	re:    lazyregexp.New(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})`),
	group: 1,
	ok:    basicCredentials,
}}

// namedKey matches a value, the regular expression value, assigned to a key
// whose name starts with provider and names a key, secret or token
// (MAILGUN_API_KEY=…, "heroku_api_key": "…"); the value is submatch 1.
func namedKey(provider, value string) *lazyregexp.Regexp {
	return lazyregexp.New(`(?i)\b` + provider + `[A-Za-z0-9_.-]*(?:key|secret|token)["'\x60]?\s*(?::=|=>|[:=])\s*["'\x60]?(` + value + `)`)
}

// yamlToken vets the value of a YAML token: key: random, holding letters
// and digits, and neither a placeholder nor a path.
func yamlToken(m []string) bool {
	v := m[1]
	return !placeholderValue(v) && !varNameRE.MatchString(v) && !strings.ContainsAny(v[:1], "/.~") &&
		strings.ContainsAny(v, "0123456789") && strings.IndexFunc(v, unicode.IsLetter) >= 0 &&
		random(v) && entropy(v) >= 3
}

var (
	uuidRE = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	hexRE  = lazyregexp.New(`^[0-9a-fA-F]+$`)
	// Stripe object ids name a customer, a payment, an event: not secrets.
	stripeIDRE = lazyregexp.New(`^(?:acct|ba|card|ch|cs|cus|evt|ii|in|po|pi|pm|price|prod|py|re|seti|si|sub|tr|txn|pk_live|pk_test)_`)
	extRE      = lazyregexp.New(`\.[A-Za-z]{1,5}$`)
)

// genericToken vets the token after a credential word: long, random-looking,
// and none of the identifiers memories legitimately hold.
func genericToken(m []string) bool {
	connector, tok := m[1], strings.TrimRight(m[2], ".")
	if m[3] != "" && callRE.MatchString(tok+m[3]) {
		return false // a call or an index: code that reads a value
	}
	if len(tok) < 20 || uuidRE.MatchString(tok) || stripeIDRE.MatchString(tok) || !random(tok) {
		return false
	}
	if strings.Contains(tok, "/") || strings.Contains(tok, "..") {
		// A path, not base64: /usr/…, ./x, ~/…, a/b/c.go.
		if strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, ".") || strings.HasPrefix(tok, "~") || extRE.MatchString(tok) {
			return false
		}
	}
	if hexRE.MatchString(tok) {
		// Hex is a digest or a SHA unless it is assigned to the word.
		return len(tok) >= 32 && strings.ContainsAny(connector, ":=") && entropy(tok) >= 3
	}
	u, l, d := classes(tok)
	return u && l && d && entropy(tok) >= 3.5
}

// placeholderPassword reports whether the password of a connection string is
// a stand-in rather than a credential: :password@, :****@, ${DB_PASS}, %s,
// <pass>, a local default such as postgres:postgres.
func placeholderPassword(user, pass string) bool {
	if pass == "" || pass == user || strings.Trim(pass, "*xX.…-_") == "" {
		return true
	}
	if strings.ContainsAny(pass[:1], "$%<[{(") || strings.Contains(pass, "${") || strings.Contains(pass, "{{") {
		return true
	}
	switch strings.ToLower(strings.Trim(pass, "_-")) {
	case "password", "pass", "passwd", "pwd", "pw", "secret", "changeme", "redacted", "example",
		"yourpassword", "your_password", "your-password", "mypassword", "my_password", "my-password",
		"user", "username", "postgres", "root", "admin", "dev", "local", "test", "placeholder", "token", "dbpass", "db_password":
		return true
	}
	return false
}

// passwordWords are the words that name a password in a key (DB_PASSWORD,
// dbPass, --passwd); notPasswordWords, next to one, name something about
// passwords that is not one (PASSWORD_MIN_LENGTH, password_file).
var (
	passwordWords    = map[string]bool{"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true, "pgpassword": true, "mysql_pwd": true}
	notPasswordWords = map[string]bool{
		"length": true, "min": true, "max": true, "policy": true, "rotation": true, "expiry": true, "expires": true,
		"age": true, "file": true, "path": true, "env": true, "var": true, "hash": true, "hashed": true, "reset": true,
		"field": true, "prompt": true, "hint": true, "strength": true, "manager": true, "complexity": true,
		"attempts": true, "timeout": true, "ttl": true, "days": true, "url": true, "ref": true, "secret": true,
		"name": true, "key": true, "id": true, "rules": true, "regex": true, "change": true, "required": true,
	}
)

// keyWords splits a key into its lowercased words at _ . - and case changes.
func keyWords(key string) []string {
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range key {
		switch {
		case r == '_' || r == '.' || r == '-':
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}

// passwordValue vets a value written after a password word: the key must
// name a password, and the value must be one rather than a reference to
// one (${VAR}, env:VAR, a path), a placeholder, or the start of a sentence
// about passwords ("password: stored in the vault").
func passwordValue(m []string) bool {
	key, connector, open, value, closing, rest := m[1], m[2], m[3], m[4], m[5], m[6]
	named, about := false, false
	for _, w := range keyWords(key) {
		named = named || passwordWords[w]
		about = about || notPasswordWords[w]
	}
	if !named || about {
		return false
	}
	quoted := open != "" && open == closing
	if !quoted {
		value = strings.TrimRight(value, ".,;:!?)]}")
	}
	if len(value) < 6 || placeholderValue(value) || codeLike(value) {
		return false
	}
	prose := strings.TrimSpace(connector) == "" || strings.HasSuffix(strings.TrimRight(connector, " \t:"), "s")
	if strings.TrimSpace(connector) == "" && !strings.HasPrefix(key, "-") {
		return false // "password reset link": only a flag (--password x) takes its value after a space
	}
	_, _, d := classes(value)
	symbol := strings.IndexFunc(value, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0
	if d || symbol || keyish(value) || quoted {
		return true
	}
	// Letters alone: a password when assigned and alone on its line
	// (DB_PASS=letmeinplease), a word of a sentence otherwise.
	rest = strings.TrimSpace(rest)
	return !prose && (rest == "" || strings.HasPrefix(rest, "#"))
}

// placeholderValue reports whether a password value stands in for one
// rather than being one: a reference to where it is kept, a mask, a
// placeholder word, a path, a variable's name.
func placeholderValue(v string) bool {
	lower := strings.ToLower(v)
	switch {
	case strings.ContainsAny(v[:1], "$%<[{(*•/~+"), strings.HasPrefix(v, "./"), strings.HasPrefix(v, "../"),
		strings.Contains(v, "${"), strings.Contains(v, "{{"), strings.Contains(v, "$("),
		strings.Trim(v, "*xX.…•-_#") == "":
		return true
	case schemeRE.MatchString(v): // env:DB_PASSWORD, vault:secret/db, op://…
		return true
	case varNameRE.MatchString(v): // PROD_DB_PASSWORD
		return true
	}
	for _, p := range []string{"example", "placeholder", "your", "changeme", "xxxx", "redacted", "dummy", "sample", "secret"} {
		if strings.Contains(lower, p) {
			return true
		}
	}
	switch strings.Trim(lower, "_-") {
	case "password", "passwd", "required", "optional", "none", "null", "nil", "empty", "unset", "disabled",
		"enabled", "true", "false", "hidden", "masked", "prompt", "prompted", "interactive", "stored", "generated",
		"random", "rotated", "hashed", "encrypted", "omitted", "removed", "mandatory", "default", "postgres",
		"root", "admin", "username", "string", "boolean", "integer", "number", "value", "undefined", "provided",
		"missing", "invalid", "expired", "correct", "incorrect", "wrong", "weak", "strong", "protected":
		return true
	}
	return false
}

// codeLike reports whether v is code that reads a value rather than the
// value: a call or an index (getenv(…), os.Args[4]) or a dotted reference
// (config.db.password, u.User.Password()).
func codeLike(v string) bool {
	return callRE.MatchString(v) || dottedRE.MatchString(v)
}

var (
	callRE    = lazyregexp.New(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*[(\[]`)
	dottedRE  = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$`)
	schemeRE  = lazyregexp.New(`^[a-z][a-z0-9+.-]*:`)
	varNameRE = lazyregexp.New(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
)

// basicCredentials reports whether the base64 after "Basic" decodes to
// user:password credentials.
func basicCredentials(m []string) bool {
	data, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		return false
	}
	user, pass, ok := strings.Cut(string(data), ":")
	return ok && user != "" && len(pass) >= 4 && !strings.ContainsAny(string(data), " \t\n") &&
		!placeholderPassword(user, pass)
}
