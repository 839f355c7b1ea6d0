package search

// Prompt cleaning: what ParseQuery reads of a raw prompt before it builds
// terms. A prompt is split into prose and code (fenced blocks, lines that
// look like logs, SQL statements, whole stack traces and diffs:
// eachSegment), image and paste markers and URLs are removed (stripNoise;
// a ticket id in a URL's path is kept), and a pasted SQL statement is
// noticed, since such a prompt is about SQL without saying so.
// TUNING.md records why each rule is what it is.

import (
	"slices"
	"strings"
	"unicode"
)

// isSQLStatement reports whether line is an SQL statement that changes or
// reads data or a table, with the structure of one: a sentence that starts
// with the same word ("update the docs and set the flag", "select a file
// from the list, then open it") is not one.
func isSQLStatement(line string) bool {
	line = strings.TrimLeft(line, " \t")
	verb, _, _ := strings.Cut(line, " ")
	if !isSQLVerb(verb) {
		return false
	}
	f := strings.Fields(line)
	has := func(word string) bool {
		return slices.ContainsFunc(f, func(w string) bool { return strings.EqualFold(w, word) })
	}
	end := strings.HasSuffix(strings.TrimSpace(line), ";")
	switch {
	case len(f) < 3:
		return false
	case strings.EqualFold(verb, "update"):
		return strings.EqualFold(f[2], "set") && strings.Contains(line, "=")
	case strings.EqualFold(verb, "select"):
		from := slices.IndexFunc(f, func(w string) bool { return strings.EqualFold(w, "from") })
		if from < 2 || from == len(f)-1 {
			return false
		}
		compares := slices.ContainsFunc(f[from+1:], func(w string) bool { return strings.ContainsAny(w, "=<>") })
		return end || compares || isColumnList(strings.Join(f[1:from], " "))
	case strings.EqualFold(verb, "delete"):
		return strings.EqualFold(f[1], "from") && (end || has("where"))
	case strings.EqualFold(verb, "insert"):
		return strings.EqualFold(f[1], "into") && (has("values") || has("select") || strings.Contains(line, "("))
	default: // alter
		return strings.EqualFold(f[1], "table") && len(f) > 3 &&
			(strings.EqualFold(f[3], "add") || strings.EqualFold(f[3], "drop") || strings.EqualFold(f[3], "alter") || strings.EqualFold(f[3], "rename"))
	}
}

// isSQLVerb reports whether word opens a statement isSQLStatement knows.
func isSQLVerb(word string) bool {
	for _, v := range [...]string{"update", "select", "delete", "insert", "alter"} {
		if strings.EqualFold(word, v) {
			return true
		}
	}
	return false
}

// isColumnList reports whether what a SELECT names before FROM has the
// shape of columns: a star, a call ("count(*)"), or names separated by
// commas, each of a word or two ("b.id", "c.name AS class", "price p"),
// where a sentence's clauses run longer ("the best option, then go").
func isColumnList(cols string) bool {
	if strings.Contains(cols, "*") {
		return true
	}
	for i := 1; i < len(cols); i++ {
		if cols[i] == '(' && isWordByte(cols[i-1]) {
			return true
		}
	}
	if !strings.Contains(cols, ",") {
		return false
	}
	for item := range strings.SplitSeq(cols, ",") {
		f := strings.Fields(item)
		if len(f) == 0 || len(f) > 3 || len(f) == 3 && !strings.EqualFold(f[1], "as") {
			return false
		}
	}
	return true
}

// maxStatementLines bounds how far a statement formatted over lines is
// followed.
const maxStatementLines = 40

// sqlStatement reports whether the line first (trimmed) starts an SQL
// statement, and how many bytes of rest, the text after it, the statement
// goes on over: a statement is often formatted with a clause a line
// ("UPDATE pass_types" / "SET price_cents = ..." / "WHERE ...;"), and
// none of its lines is one alone. It goes on over the lines that continue
// it (continuesStatement) up to one that ends in ";".
func sqlStatement(first, rest string) (ok bool, n int) {
	verb, _, _ := strings.Cut(first, " ")
	if !isSQLVerb(verb) {
		return false, 0
	}
	lower := verb == strings.ToLower(verb)
	for lines := 0; !strings.HasSuffix(first, ";") && lines < maxStatementLines && n < len(rest); lines++ {
		line, _, _ := strings.Cut(rest[n:], "\n")
		if !continuesStatement(line, lower) {
			break
		}
		n += min(len(line)+1, len(rest)-n)
		if strings.HasSuffix(strings.TrimSpace(line), ";") {
			break
		}
	}
	if n > 0 && isSQLStatement(first+" "+strings.Join(strings.Fields(rest[:n]), " ")) {
		return true, n
	}
	return isSQLStatement(first), 0
}

// continuesStatement reports whether line goes on with an SQL statement
// begun above it: it is indented, or opens with a clause's keyword
// ("WHERE", "JOIN", "AND") in capitals, or in lower case under a statement
// begun in lower case, unless it asks a question, as the person's own words
// after a paste may ("where does this go wrong?").
func continuesStatement(line string, lower bool) bool {
	trim := strings.TrimSpace(line)
	switch {
	case trim == "" || isFence(trim):
		return false
	case line[0] == ' ' || line[0] == '\t' || trim[0] == ')':
		return true
	}
	word, _, _ := strings.Cut(trim, " ")
	if !slices.Contains(sqlClauses, strings.ToLower(word)) {
		return false
	}
	return word == strings.ToUpper(word) || lower && word == strings.ToLower(word) && !strings.HasSuffix(trim, "?")
}

// sqlClauses are the words that open a line of a statement formatted over
// lines.
var sqlClauses = []string{"from", "where", "set", "join", "inner", "left", "right", "full", "cross", "on",
	"and", "or", "group", "order", "having", "limit", "offset", "values", "returning", "union", "select"}

// eachSegment splits raw prompt text into prose and code (fenced blocks,
// lines that look like logs, SQL statements, and whole stack traces and
// diffs), with markers and URLs removed, and reports whether there was an
// SQL statement. A pasted statement's table and column names are the data
// it touches, as a log's are; what the person says about it ("running it
// on prod now") is the topic.
func eachSegment(s string, fn func(text string, code bool)) (sql bool) {
	inFence, inBlock := false, false
	var prose strings.Builder
	flush := func() {
		if prose.Len() > 0 {
			fn(prose.String(), false)
			prose.Reset()
		}
	}
	for rest := s; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		trim := strings.TrimSpace(line)
		if isFence(trim) {
			inFence = !inFence
			continue
		}
		// A stack trace or diff runs until a blank line: its frames' code
		// lines and its context lines look like prose one by one.
		inBlock = inBlock && trim != "" || startsBlock(trim)
		statement, n := sqlStatement(trim, rest)
		if statement {
			sql = true
			line, rest = line+rest[:n], rest[n:]
		}
		line = stripNoise(line)
		if inFence || inBlock || looksLikeLog(trim) || statement {
			flush()
			fn(line, true)
			continue
		}
		prose.WriteString(line)
		prose.WriteByte('\n')
	}
	flush()
	return sql
}

// isFence reports whether the trimmed line opens or closes a code fence.
func isFence(trim string) bool {
	return strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~")
}

// startsBlock reports whether line opens a stack trace or a diff.
func startsBlock(line string) bool {
	for _, p := range [...]string{"Traceback (most recent call last)", "goroutine ", "panic:", "Exception in thread",
		"diff --git", "@@ ", "+++ ", "--- a/"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// stripNoise removes image and paste markers ("[Image #1]") and URLs. From a
// URL it keeps path segments that look like ticket ids ("LARK-412").
func stripNoise(s string) string {
	if !strings.Contains(s, "[") && !strings.Contains(s, "://") && !strings.Contains(s, "www.") {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		if s[0] == '[' {
			if end := strings.IndexByte(s, ']'); end > 0 && isMarker(s[1:end]) {
				b.WriteByte(' ')
				s = s[end+1:]
				continue
			}
		}
		if n := urlLen(s); n > 0 && (b.Len() == 0 || !isWordByte(lastByte(b.String()))) {
			for i, seg := range strings.Split(s[:n], "/") {
				if isTicketID(seg) || i >= 3 && isURLWord(seg) {
					b.WriteByte(' ')
					b.WriteString(seg)
				}
			}
			b.WriteByte(' ')
			s = s[n:]
			continue
		}
		b.WriteByte(s[0])
		s = s[1:]
	}
	return b.String()
}

func lastByte(s string) byte { return s[len(s)-1] }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isMarker reports whether the inside of brackets is a client marker such as
// "Image #1", "Pasted text #2 +40 lines" or "image".
func isMarker(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"image", "pasted", "screenshot", "file", "attachment"} {
		if strings.HasPrefix(s, p) && (len(s) == len(p) || s[len(p)] == ' ' || s[len(p)] == '#') {
			return true
		}
	}
	return false
}

// urlLen returns the length of a URL at the start of s, or 0.
func urlLen(s string) int {
	i := 0
	for i < len(s) && i <= 10 && (isWordByte(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	switch {
	case i > 0 && strings.HasPrefix(s[i:], "://") && isScheme(s[:i]):
	case strings.HasPrefix(s, "www."):
		i = -3
	default:
		return 0
	}
	n := i + 3
	for n < len(s) && !unicode.IsSpace(rune(s[n])) && s[n] != '>' && s[n] != ')' && s[n] != '"' && s[n] != '\'' && s[n] != '`' {
		n++
	}
	return n
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// isURLWord reports whether a URL path segment is a short name ("ledger",
// "atlas-web") rather than an id, a hash or a title slug.
func isURLWord(seg string) bool {
	if seg == "" || len(seg) > 24 || strings.Count(seg, "-") > 1 || strings.ContainsAny(seg, "?=&%#.") {
		return false
	}
	for i := 0; i < len(seg); i++ {
		if isDigit(seg[i]) {
			return false
		}
	}
	return true
}

// isTicketID reports whether s looks like "ABC-123".
func isTicketID(s string) bool {
	i := strings.IndexByte(s, '-')
	if i < 2 || i == len(s)-1 {
		return false
	}
	for j := 0; j < i; j++ {
		if !(s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z') {
			return false
		}
	}
	return isNumber(s[i+1:])
}

// looksLikeLog reports whether a line reads like machine output rather than
// prose: a timestamp or log level up front, a stack frame, a diff line, or
// few letters among many symbols. (The lines that open a stack trace or a
// diff are startsBlock's, which eachSegment asks first.)
func looksLikeLog(line string) bool {
	if line == "" {
		return false
	}
	switch {
	case strings.HasPrefix(line, "at ") && strings.ContainsAny(line, "(:"),
		strings.HasPrefix(line, "File \""), strings.HasPrefix(line, "Traceback"),
		strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "$ "):
		return true
	}
	// Leading date or time: 2026-11-10, 14:02:11.
	if len(line) >= 8 && isDigit(line[0]) && isDigit(line[1]) && (line[2] == ':' || (isDigit(line[2]) && isDigit(line[3]) && line[4] == '-')) {
		return true
	}
	letters, others := 0, 0
	for _, r := range line {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsSpace(r):
		default:
			others++
		}
	}
	return others > 8 && others*2 > letters
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
