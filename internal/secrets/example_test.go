package secrets_test

import (
	"fmt"

	"github.com/mem-dev/mem/internal/secrets"
)

func ExampleCheck() {
	memory := "# Stripe webhooks\n\nVerify signatures with STRIPE_WEBHOOK_SECRET (in Doppler).\n" +
		"Local: postgres://app:" + "Xq7pL2vR9mT4" + "@db.internal/app\n"
	fmt.Println(secrets.Check("stripe-webhooks.md", memory))
	fmt.Println(secrets.Check("vat.md", "VAT is rounded per invoice line, see billing/vat.py."))
	// Output:
	// stripe-webhooks.md:4: looks like a connection string with an inline password; memories are committed to git, so secrets must not be stored
	// <nil>
}
