package modelcmd_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mem-dev/mem/internal/modelcmd"
)

// A pass asks for a typed verdict and degrades when no model is available.
func ExampleRunner_Ask() {
	type verdict struct {
		Relation   string  `json:"relation"` // supersedes|duplicate|partial|unrelated
		Confidence float64 `json:"confidence"`
		Reason     string  `json:"reason"`
	}
	r := modelcmd.FromEnv()
	r.Log = os.Stderr
	if err := r.Available(); errors.Is(err, modelcmd.ErrUnavailable) {
		fmt.Println("mem: hint:", err) // run the deterministic part only
		return
	}
	var v verdict
	err := r.Ask(context.Background(), "Compare vat-rounding and vat-rates. Answer in JSON: ...", &v)
	if err != nil {
		fmt.Println("queue for review:", err)
		return
	}
	fmt.Println(v.Relation, v.Confidence)
}
