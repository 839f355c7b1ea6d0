package mdparse_test

import (
	"fmt"

	"github.com/mem-dev/mem/mdparse"
)

func ExampleMemory_Set() {
	m, err := mdparse.Parse("vat.md", []byte("---\nname: VAT rounds per line\nclass: gotcha  # see DESIGN.md\nreviewer: ada\n---\nBody.\n"))
	if err != nil {
		panic(err)
	}
	m.Set("class", "rule")
	m.Set("unverified", []string{"path shop/tax.py does not exist (2026-11-21)"})
	fmt.Print(string(m.Bytes()))
	// Output:
	// ---
	// name: VAT rounds per line
	// class: rule  # see DESIGN.md
	// reviewer: ada
	// unverified: [path shop/tax.py does not exist (2026-11-21)]
	// ---
	// Body.
}

func ExampleSlugify() {
	fmt.Println(mdparse.Slugify("Don't deploy on Fridays — Café rule"))
	// Output: dont-deploy-on-fridays-cafe-rule
}

func ExampleMeasureCatalog() {
	b := mdparse.MeasureCatalog("MEMORY.md", []byte("# Index\n<!-- not loaded -->\n- [VAT](vat.md) — rounds per line\n"))
	fmt.Printf("%d lines, %d bytes, fits: %v\n", b.Lines, b.Bytes, b.Fits)
	// Output: 2 lines, 44 bytes, fits: true
}
