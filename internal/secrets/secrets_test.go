package secrets

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The fake keys below are random strings in each provider's format, split
// with + so that no whole key sits in the source for other scanners to trip on.
const (
	b16 = "u8jzPde0IgxLd6Gn"
	b20 = "fkCzJr4i0B3JrTAwR4y9"
	b22 = "F4vUCsMehGAkWvj7FAc9Qe"
	b32 = "ojfljoQoaF1LlqsajAIxNKu8iS2G8NPR"
	b35 = "VdD53X83RZJzzgEOzdmenCkhvMdgaKjIg0p"
	b36 = "gLKOmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtH"
	b40 = "cfBAepfJBd0Kh8oOOL8dKLzdocJ2isAjIhKtJ0Rl"
	b43 = "8xNbe3nNyjOq9wMxEhh2FDEEtfjgVvVqE1SkHbn88Hx"
	b59 = "WJKY40uvSwMFLZDe1f8rESQedUStPKR0CsTy4Qwb8DwkNhFdnXsiVpzz63F"
	b90 = "YrEqmSM9wCZ7Uw9xfogoEmvnEN5N1aE6PwZPf1Qh6yYTWmE4lBYOvfZ8UzDzV8fUkkibjL5DZPjN0MEQ7wjJJibaZU"
	h32 = "34d6608697a8d41bed440e50454f31af"
	u16 = "6Z3FCH26WSZ14SKW"
	sha = "3f9a2b7c1d4e5f60718293a4b5c6d7e8f9012345"
	pw  = "Xq7pL2vR9"
	l40 = "kvj50ce9uvw53efr4edt2sywb3wkh5dnsipzz5fk" // lowercase and digits
	v24 = "Qm7tWx2LpR9vKd4NzB8sYh3J"
	b68 = "nD8zRA9a9SkpXz9w3QlY7Zkuvqdt7s8Stqcbnr3yBdGBLEPH1qhT61qtc4xatws8phP9"
	age = "5FERYXHRDZ9M6Y09MR8WRERWZGJ6F8NTXVHXYRDLM5AAHN0T09NL4UJY86" // bech32
	uid = "8d3f1c2a-6b7e-4f90-a1d2-3c4b5e6f7a80"
)

// spaced writes s in groups of n separated by spaces, as a key read aloud
// or copied from a formatted page.
func spaced(s string, n int) string {
	var groups []string
	for len(s) > n {
		groups = append(groups, s[:n])
		s = s[n:]
	}
	return strings.Join(append(groups, s), " ")
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestScan(t *testing.T) {
	tests := []struct {
		text    string
		pattern string // "" means no finding
		excerpt string
	}{
		// Providers.
		{"aws_access_key_id = AKIA" + u16, "AWS access key id", "AKIA…"},
		{"temporary creds: ASIA" + u16 + " (expire hourly)", "AWS access key id", "ASIA…"},
		{"aws_secret_access_key = " + b40[:20] + "/" + b40[21:], "AWS secret access key", "cfBA…"},
		{`"SecretAccessKey": "` + b40 + `"`, "AWS secret access key", "cfBA…"},
		{"GITHUB_TOKEN=ghp_" + b36, "GitHub token", "ghp_…"},
		{"bot uses ghs_" + b36, "GitHub token", "ghs_…"},
		{"github_pat_" + b22 + "_" + b59, "GitHub token", "gith…"},
		{"CI_TOKEN: glpat-" + b20, "GitLab token", "glpa…"},
		{"slack bot xoxb-4815162342-2718281828459-" + b22, "Slack token", "xoxb…"},
		{"alerts post to https://hooks.slack.com/services/T0" + u16[:8] + "/B0" + u16[8:] + "/" + b22, "Slack webhook URL", "http…"},
		{"STRIPE_SECRET_KEY=sk_live_51" + b32, "Stripe secret key", "sk_l…"},
		{"tests use sk_test_51" + b32, "Stripe secret key", "sk_t…"},
		{"restricted key rk_live_51" + b32, "Stripe secret key", "rk_l…"},
		{"signing secret whsec_" + b32, "Stripe webhook signing secret", "whse…"},
		{"ANTHROPIC_API_KEY=sk-ant-api03-" + b90 + "-AA", "Anthropic API key", "sk-a…"},
		{"OPENAI_API_KEY=sk-proj-" + b90, "OpenAI API key", "sk-p…"},
		{"old key sk-" + b20 + "T3BlbkFJ" + b20, "OpenAI API key", "sk-f…"},
		{"maps key AIza" + b35, "Google API key", "AIza…"},
		{"twilio SK" + h32, "Twilio API key", "SK34…"},
		{"SENDGRID_API_KEY=SG." + b22 + "." + b43, "SendGrid API key", "SG.F…"},
		{"//registry.npmjs.org/:_authToken=npm_" + b36, "npm token", "npm_…"},
		{"session cookie eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsImV4cCI6MTcwMDAwMDAwMH0." + b43, "JSON Web Token", "eyJh…"},
		{"curl -s --user 'api:key-" + h32 + "' https://api.mailgun.net/v3/mg.example.com/messages", "Mailgun API key", "key-…"},
		{"MAILGUN_API_KEY=" + h32 + "-4b484e73-cf575dca", "Mailgun API key", "34d6…"},
		{`mailgun_api_key: "key-` + h32 + `"`, "Mailgun API key", "key-…"},
		{"deploys post to https://discord.com/api/webhooks/1187459023615823872/" + b68, "Discord webhook URL", "http…"},
		{"old hook https://discordapp.com/api/webhooks/887459023615823872/" + b68 + "/slack", "Discord webhook URL", "http…"},
		{"TELEGRAM_BOT_TOKEN=6893417250:AAF" + b32, "Telegram bot token", "6893…"},
		{"alerts: curl https://api.telegram.org/bot6893417250:AAF" + b32 + "/sendMessage", "Telegram bot token", "6893…"},
		{"vault login s." + v24, "Vault token", "s.Qm…"},
		{"Initial Root Token: s." + v24, "Vault token", "s.Qm…"},
		{"X-Vault-Token: hvs.CAESI" + b90, "Vault token", "hvs.…"},
		{"    token: " + l40, "kubeconfig token", "kvj5…"},
		{"- token: ab1c2d.9f8e7d6c5b4a3f2e", "kubeconfig token", "ab1c…"},
		{`{"auths":{"registry.gitlab.com":{"auth":"` + b64("deploy-bot:"+b20) + `"}}}`, "Docker registry auth entry", "ZGVw…"},
		{`      "auth": "` + b64("ada:"+pw) + `",`, "Docker registry auth entry", "YWRh…"},
		{"SHOPIFY_ACCESS_TOKEN=shpat_" + h32, "Shopify access token", "shpa…"},
		{"app secret shpss_" + h32 + " for webhooks", "Shopify access token", "shps…"},
		{"HEROKU_API_KEY=" + uid, "Heroku API key", "8d3f…"},
		{`heroku_api_key = "` + uid + `"`, "Heroku API key", "8d3f…"},
		{"SOPS_AGE_KEY=AGE-SECRET-KEY-1" + age, "age secret key", "AGE-…"},
		{"AGE-SECRET-KEY-1" + age, "age secret key", "AGE-…"},
		// Private keys: the header counts when key material follows.
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + b40 + "\n-----END RSA PRIVATE KEY-----", "private key block", "----…"},
		{"    -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAA" + b20, "private key block", "----…"},
		{"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,34D6\n\n" + b43, "private key block", "----…"},
		{`KEY="-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC` + b20 + `"`, "private key block", "----…"},
		// Connection strings.
		{"DATABASE_URL=postgres://billing:Xq7pL2vR9mT4@db.prod.internal:5432/billing", "connection string with an inline password", "post…"},
		{"mongodb+srv://svc-reader:" + b16 + "@cluster0.ab1cd.mongodb.net/app", "connection string with an inline password", "mong…"},
		{"cache at redis://:hunter2hunter2@cache.internal:6379/0", "connection string with an inline password", "redi…"},
		// Tokens right after a credential word.
		{"API_KEY=" + b32, "high-entropy token next to a credential word", "ojfl…"},
		{`"client_secret": "` + b32 + `",`, "high-entropy token next to a credential word", "ojfl…"},
		{"the deploy token is " + b36 + ".", "high-entropy token next to a credential word", "gLKO…"},
		{"curl -H 'Authorization: Bearer " + b40 + "'", "high-entropy token next to a credential word", "cfBA…"},
		{"TWILIO_AUTH_TOKEN=" + h32, "high-entropy token next to a credential word", "34d6…"},
		{"db password := " + b22, "high-entropy token next to a credential word", "F4vU…"},
		{"apiKey: '" + b20 + "'", "high-entropy token next to a credential word", "fkCz…"},
		// Passwords: short and written by people, so not high-entropy.
		{"DB_PASSWORD=" + pw, "password", "Xq7p…"},
		{"export PGPASSWORD='" + pw + "'", "password", "Xq7p…"},
		{"password: " + pw, "password", "Xq7p…"},
		{`  "password": "hunter2!"`, "password", "hunt…"},
		{"the prod admin password is " + pw, "password", "Xq7p…"},
		{"The password for the staging db is Tr0ub4dor&3.", "password", "Tr0u…"},
		{"dbPassword = letmein99", "password", "letm…"},
		{"DB_PASS=letmeinplease", "password", "letm…"},
		{"mysql -u root -p" + pw + " shop", "password", "Xq7p…"},
		{"psql --password=" + pw + " -h db", "password", "Xq7p…"},
		// Split, spaced or glued keys are the same keys.
		{"aws key AKIA " + spaced(u16, 4), "AWS access key id", "AKIA…"},
		{"token ghp_" + spaced(b36, 6), "GitHub token", "ghp_…"},
		{`key = "sk_live_51` + b16[:8] + `" + "` + b16[8:] + `"`, "Stripe secret key", "sk_l…"},
		{"GITHUB_TOKEN=ghp_" + b36[:18] + "\n" + b36[18:], "GitHub token", "ghp_…"},
		// Encoded: base64 of a key pair, of a PEM block, of basic credentials.
		{"creds: " + b64("AKIA"+u16+":"+b40), "base64-encoded AWS access key id", "QUtJ…"},
		{"id_rsa: " + b64("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"+b40+"\n-----END OPENSSH PRIVATE KEY-----\n"), "base64-encoded private key block", "LS0t…"},
		{"key material b3BlbnNzaC1yZXktdjE" + b43, "", ""}, // a near miss of the OpenSSH magic is not a key
		{"key material " + b64("openssh-key-v1\x00"+b40), "private key", "b3Bl…"},
		{"curl -H 'Authorization: Basic " + b64("deploy:"+pw) + "'", "HTTP basic credentials", "ZGVw…"},

		// What memories legitimately hold.
		{"fixed in commit " + sha + " (the key rotation)", "", ""},
		{"key change landed in " + sha, "", ""},
		{"deploy token " + sha + " was the commit that broke it", "", ""},
		{"api key id: 123e4567-e89b-12d3-a456-426614174000", "", ""},
		{"Idempotency-Key: 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", "", ""},
		{"secret loading lives in src/billing/StripeSecretLoader2.py", "", ""},
		{"token: /var/run/secrets/kubernetes.io/serviceaccount/token", "", ""},
		{"token file ~/.config/gh/hosts2024Backup.yml", "", ""},
		{"webhook secret is set at https://dashboard.stripe.com/test/webhooks/we_1NqLm2Abc3Def4Ghi", "", ""},
		{"customer key cus_Q8xYz12AbCdEf3GhIjKl4", "", ""},
		{"idempotency key pi_3NqLm2Abc3Def4Ghi5Jkl6 was reused", "", ""},
		{"publishable key pk_live_51" + b32 + " is public by design", "", ""},
		{"the whsec signing secret lives in Doppler", "", ""},
		{"set STRIPE_WEBHOOK_SECRET=whsec_… from Doppler; locally whsec_xxx is fine", "", ""},
		{"STRIPE_SECRET_KEY=sk_live_… (Doppler project billing, config prd)", "", ""},
		{"live keys start with sk_live_ and test keys with sk_test_", "", ""},
		{"| STRIPE_SECRET_KEY | Doppler | billing-prd |", "", ""},
		{"read SECRET_KEY_BASE and AWS_SECRET_ACCESS_KEY from the environment", "", ""},
		{"postgres://user:password@localhost/db", "", ""},
		{"postgres://app:****@db.internal/app", "", ""},
		{"postgres://app:${DB_PASSWORD}@db.internal/app", "", ""},
		{"mysql://root:<password>@127.0.0.1:3306/shop", "", ""},
		{"DATABASE_URL=postgres://atlas:atlas@localhost:5433/atlas_dev?sslmode=disable", "", ""},
		{"postgres://%s:%s@%s/%s", "", ""},
		{"https://github.com/mem-dev/mem/pull/42 and git@github.com:mem-dev/mem.git", "", ""},
		{"AWS docs use AKIAIOSFODNN7EXAMPLE as the example key id", "", ""},
		{"OPENAI_API_KEY=sk-xxx for local runs; sk-learn-compatible-preprocessing-steps are unrelated", "", ""},
		{"call getApiKeyFromVault2 and tokenizerConfigurationManagerV2", "", ""},
		{"Private keys start with -----BEGIN OPENSSH PRIVATE KEY----- and must never be pasted.", "", ""},
		{"-----BEGIN PRIVATE KEY-----\n(never paste the rest)\n-----END PRIVATE KEY-----", "", ""},
		{"JWTs look like eyJhbGciOi… and expire after 15 minutes", "", ""},
		{"image digest " + b32 + " has no credential word", "", ""},
		{"the secret sauce is SupercalifragilisticExpialidocious", "", ""},
		{"token budget: 1500 tokens per prompt, 40 memories", "", ""},
		{"password: EXAMPLE_Password_1234_ChangeMe", "", ""},
		{"DB_PASSWORD=${DB_PASSWORD}", "", ""},
		{"password: $PGPASSWORD", "", ""},
		{"password: <your password>", "", ""},
		{`password: "********"`, "", ""},
		{"password: required", "", ""},
		{"DB_PASSWORD=changeme", "", ""},
		{"DB_PASSWORD=PROD_DB_PASSWORD (from Doppler)", "", ""},
		{"PASSWORD_MIN_LENGTH=12 and PASSWORD_ROTATION_DAYS=90", "", ""},
		{"password_file: /run/secrets/db_password", "", ""},
		{"password: env:DB_PASSWORD", "", ""},
		{"the admin password is rotated every 90 days", "", ""},
		{"the password is stored in 1Password, item prod-db", "", ""},
		{"password: see the vault entry billing/prod", "", ""},
		{"passwordless login uses magic links", "", ""},
		{"bypass: enabled for health checks", "", ""},
		{"passport: required for the offsite", "", ""},
		{"reset the password in the admin UI, then log in again", "", ""},
		{"password hashed with bcrypt (cost 12)", "", ""},
		{"tests pass: 412 of 415", "", ""},
		{"see /etc/passwd: the deploy user has uid 1001", "", ""},
		{"sha256:" + sha + sha[:24], "", ""},
		{"integrity sha512-" + b64("\x8f\x01\xfe\x10\x99\xaa\x03\xb4\xc5\xd6\xe7\xf8\x09\x1a\x2b\x3c\x4d\x5e\x6f\x70\x81\x92\xa3\xb4\xc5\xd6\xe7\xf8\x09\x1a\x2b\x3c"), "", ""},
		{"brand colours #3f9a2b #ffcc00 #00aaff #123456 #abcdef", "", ""},
		{"colours 3f9a2b ffcc00 00aaff 123456 abcdef", "", ""},
		{"ids 123e4567-e89b-12d3-a456-426614174000 and 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", "", ""},
		{"commit " + spaced(sha, 8) + " reverted it", "", ""},
		{"the logo is data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "", ""},
		{"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b43 + " ada@laptop is the deploy public key", "", ""},
		{"release v1 2 3 on 2024 01 15 at 10 30", "", ""},
		{"the token configuration\nManagerV2 handles it", "", ""},
		{"password := os.Getenv(\"DB_PASSWORD\")", "", ""},
		{"password = config.db.password", "", ""},
		{"firstPassCallback := func(s string) error", "", ""},
		{`cmd.Env = append(env, "PWD="+dir)`, "", ""},
		{"privateKey := x25519.NewPrivateKey(*publicKey)", "", ""},
		// Look-alikes of the providers' formats.
		{"Mailgun's public validation key is pubkey-" + h32, "", ""},
		{"MAILGUN_API_KEY=$MAILGUN_API_KEY", "", ""},
		{"MAILGUN_API_KEY=key-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "", ""},
		{"MAILGUN_DOMAIN=mg.example.com", "", ""},
		{"the #deploys channel is https://discord.com/channels/1187459023615823872/1187459023615823999", "", ""},
		{"webhook: https://discord.com/api/webhooks/<id>/<token>", "", ""},
		{"https://discord.com/api/webhooks/123456789012345678/xxx", "", ""},
		{"timestamps 20240115:103000 and 12:30:45, ratio 1234567890:1", "", ""},
		{"the bot token looks like 123456789:ABC-DEF1234ghIkl-zyx57W2v1u123ew11 in the docs", "", ""},
		{"TELEGRAM_BOT_TOKEN=$TOKEN", "", ""},
		{"return s.parseRequestHeaders(ctx)", "", ""},
		{"token := s.tokenSourceForProject2x()", "", ""},
		{"vault tokens look like s.xxxxxxxxxxxxxxxxxxxxxxxx or hvs.…", "", ""},
		{"VAULT_TOKEN=$(vault print token)", "", ""},
		{"    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token", "", ""},
		{"    token: ${KUBE_TOKEN}", "", ""},
		{"    token: <redacted>", "", ""},
		{"    token: REDACTED", "", ""},
		{"  token: 1500", "", ""},
		{`{"auths":{"ghcr.io":{}},"credsStore":"desktop"}`, "", ""},
		{`"auth": ""`, "", ""},
		{`"auth": "` + b64("the quick brown fox jumps over") + `"`, "", ""},
		{"SHOPIFY_ACCESS_TOKEN=shpat_…; tokens start with shpat_, shpss_ or shpca_", "", ""},
		{"shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "", ""},
		{"HEROKU_APP_ID=" + uid, "", ""},
		{"HEROKU_API_KEY=$HEROKU_API_KEY", "", ""},
		{"HEROKU_API_KEY=00000000-0000-0000-0000-000000000000", "", ""},
		{"request " + uid + " failed", "", ""},
		{"age public key age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p", "", ""},
		{"age identities start with AGE-SECRET-KEY-1 and live in ~/.config/sops/age/keys.txt", "", ""},
		{"AGE-SECRET-KEY-1XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "", ""},
		{"about: " + b64("Memories are committed to git, so they must never hold a secret."), "", ""},
		{"set PASSWORD=<your password> before the first run", "", ""},
		{"export API_TOKEN=$TOKEN", "", ""},
		{"see https://example.com/api/webhooks/123/abc and https://api.example.com/v3/messages", "", ""},
		{"palette #1e90ff, #FF6347 and rgb(30, 144, 255)", "", ""},
	}
	for _, tt := range tests {
		fs := Scan(tt.text)
		if tt.pattern == "" {
			if len(fs) > 0 {
				t.Errorf("Scan(%q) = %+v, want nothing", tt.text, fs)
			}
			continue
		}
		if len(fs) != 1 || fs[0].Pattern != tt.pattern || fs[0].Excerpt != tt.excerpt || fs[0].Line != 1 {
			t.Errorf("Scan(%q) = %+v\nwant one finding on line 1: %s (%s)", tt.text, fs, tt.pattern, tt.excerpt)
		}
	}
}

func TestScanLinesAndOverlaps(t *testing.T) {
	text := "---\nname: billing\n---\n\nUse Doppler.\r\nkey: sk_live_51" + b32 + " and AKIA" + u16 + "\n"
	fs := Scan(text)
	want := []Finding{{6, "Stripe secret key", "sk_l…"}, {6, "AWS access key id", "AKIA…"}}
	if fmt.Sprint(fs) != fmt.Sprint(want) {
		t.Errorf("Scan = %+v\nwant %+v (one finding per secret, not one per pattern)", fs, want)
	}
}

func TestCheck(t *testing.T) {
	if err := Check("vat.md", "VAT is rounded per line.\nSee invoice.py.\n"); err != nil {
		t.Errorf("Check clean text: %v", err)
	}
	err := Check("vat.md", "# VAT\n\nkey id AKIA"+u16+"\n")
	want := "vat.md:3: looks like an AWS access key id; memories are committed to git, so secrets must not be stored"
	if err == nil || err.Error() != want {
		t.Errorf("Check = %v\nwant %s", err, want)
	}
	err = Check("", "a\nGITHUB_TOKEN=ghp_"+b36+"\nsk_test_51"+b32)
	want = "line 2: looks like a GitHub token (and 1 more); memories are committed to git, so secrets must not be stored"
	var se *Error
	if !errors.As(err, &se) || err.Error() != want || len(se.Findings) != 2 {
		t.Errorf("Check = %v\nwant %s", err, want)
	}
	if strings.Contains(err.Error(), b36[:5]) {
		t.Errorf("the error message leaks the secret: %v", err)
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"ghp_abcdef": "ghp_…", "abcdef": "abc…", "ab": "a…", "": "…", "ünïcödé-key": "ünïc…",
	} {
		if got := mask(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzScan(f *testing.F) {
	f.Add("aws_access_key_id = AKIA" + u16)
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + b40)
	f.Add("postgres://billing:Xq7pL2vR9mT4@db/x")
	f.Add("API_KEY=" + b32 + "\r\ntoken is " + h32)
	f.Add("sk-proj-" + b90 + " eyJa" + b20 + ".eyJb" + b20 + "." + b20)
	f.Add("key: ü\xff\xfe" + b36)
	f.Add("MAILGUN_API_KEY=key-" + h32 + "\nhttps://discord.com/api/webhooks/1187459023615823872/" + b68)
	f.Add("curl https://api.telegram.org/bot6893417250:AAF" + b32 + "/getMe\nvault login s." + v24)
	f.Add("users:\n- name: ci\n  user:\n    token: " + l40)
	f.Add(`{"auths":{"ghcr.io":{"auth":"` + b64("ci:"+pw) + `"}}}`)
	f.Add("shpat_" + h32 + " HEROKU_API_KEY=" + uid + " AGE-SECRET-KEY-1" + age)
	f.Fuzz(func(t *testing.T, text string) {
		fs := Scan(text)
		lines := strings.Count(text, "\n") + 1
		for _, f := range fs {
			if f.Line < 1 || f.Line > lines || f.Pattern == "" {
				t.Fatalf("bad finding %+v in %q", f, text)
			}
			if !strings.HasSuffix(f.Excerpt, "…") || utf8.RuneCountInString(f.Excerpt) > 5 {
				t.Fatalf("excerpt %q shows too much", f.Excerpt)
			}
		}
		if err := Check("x.md", text); (err != nil) != (len(fs) > 0) {
			t.Fatalf("Check = %v with %d findings", err, len(fs))
		}
	})
}

// TestScanKeyMaterial: private keys are found as PEM, as bare base64 DER
// (wrapped or not) and as base64 of a whole PEM file; public keys and
// certificates, which memories may well quote, are not.
func TestScanKeyMaterial(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8 := func(k any) []byte {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}
	ecDER, err := x509.MarshalECPrivateKey(ecKey)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mem"}, NotAfter: time.Now().Add(time.Hour)}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ecKey.PublicKey, ecKey)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	wrap := func(der []byte) string {
		s := base64.StdEncoding.EncodeToString(der)
		var lines []string
		for len(s) > 64 {
			lines, s = append(lines, s[:64]), s[64:]
		}
		return strings.Join(append(lines, s), "\n")
	}
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	tests := []struct {
		name, text, pattern string
	}{
		{"PKCS #1 PEM", pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)), "private key block"},
		{"PKCS #8 bare DER, one line", "key: " + base64.StdEncoding.EncodeToString(pkcs8(rsaKey)), "private key"},
		{"PKCS #8 bare DER, wrapped", "the key:\n" + wrap(pkcs8(rsaKey)), "private key"},
		{"Ed25519 PKCS #8", "ed key " + base64.StdEncoding.EncodeToString(pkcs8(edKey)), "private key"},
		{"SEC 1 EC", "ec key " + base64.StdEncoding.EncodeToString(ecDER), "private key"},
		{"base64 of a PEM file", "tls.key: " + b64(pemOf("EC PRIVATE KEY", ecDER)), "base64-encoded private key block"},
		{"certificate PEM", pemOf("CERTIFICATE", cert), ""},
		{"certificate base64", "tls.crt: " + b64(pemOf("CERTIFICATE", cert)), ""},
		{"public key DER", "pub " + base64.StdEncoding.EncodeToString(pub), ""},
		{"public key PEM", pemOf("PUBLIC KEY", pub), ""},
	}
	for _, tt := range tests {
		fs := Scan(tt.text)
		switch {
		case tt.pattern == "" && len(fs) > 0:
			t.Errorf("%s: Scan = %+v, want nothing", tt.name, fs)
		case tt.pattern != "" && (len(fs) != 1 || fs[0].Pattern != tt.pattern):
			t.Errorf("%s: Scan = %+v, want one %s", tt.name, fs, tt.pattern)
		}
	}
}
