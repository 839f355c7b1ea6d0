package verify_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/verify"
)

func ExampleExtract() {
	m := mdparse.New(mdparse.Fields{Name: "VAT rounding"},
		"Rounding is in `shop/checkout/tax.py` (PR #231 was merged), on the release/2026-10 branch.\n"+
			"Open PR #240 moves it. Docs: https://docs.larkspur.io/vat, dev server http://localhost:8000.")
	for _, c := range verify.Extract(m) {
		fmt.Println(c)
	}
	// Output:
	// path_exists shop/checkout/tax.py
	// branch_exists release/2026-10
	// pr_merged 231
	// url_responds https://docs.larkspur.io/vat
}

func ExampleRun() {
	repo, _ := os.MkdirTemp("", "verify-example")
	defer os.RemoveAll(repo)
	_ = os.MkdirAll(filepath.Join(repo, "shop", "checkout"), 0o755)
	_ = os.WriteFile(filepath.Join(repo, "shop", "checkout", "cart.py"), nil, 0o644)

	memories := map[string]*mdparse.Memory{
		"vat-rounding": mdparse.New(mdparse.Fields{Name: "VAT rounding"}, "See `shop/checkout/tax.py` and `checkout/cart.py`."),
	}
	p := &verify.Prober{Repo: repo} // no HTTP client: no network
	r := verify.Run(context.Background(), p, nil, memories, nil)
	fmt.Println(r.Claims, "claims,", r.Passed, "passed,", len(r.Failed), "failed")
	labels := verify.Labels(r.Failed, time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
	fmt.Println(labels["vat-rounding"])
	// Output:
	// 2 claims, 1 passed, 1 failed
	// [path shop/checkout/tax.py does not exist (2026-11-21)]
}
