package main

import (
	"context"
	"fmt"
	"log"
	"os/exec"
	"runtime"

	"github.com/mem-dev/mem/internal/skills"
	"github.com/mem-dev/mem/internal/web"
)

type serveCmd struct {
	Addr string `help:"Loopback address to listen on (127.0.0.1, ::1 or localhost; port 0 picks a free one)." default:"127.0.0.1:0" placeholder:"HOST:PORT"`
	Open bool   `help:"Open the page in the browser."`
}

// Run serves the store's page until Ctrl-C.
func (c serveCmd) Run(e *env) error {
	longLived()
	r, err := e.open()
	if err != nil {
		return err
	}
	l, err := web.Listen(c.Addr)
	if err != nil {
		return err
	}
	defer l.Close()
	sk, err := skills.Open(r.Place.WorkTree)
	if err != nil {
		sk = nil
	}
	srv, err := web.New(web.Options{
		Repo:   r,
		Skills: sk,
		Addr:   l.Addr().String(),
		Log:    log.New(e.stderr, "mem serve: ", 0),
		Doctor: func(ctx context.Context) []web.Finding {
			problems, err := doctorProblems(e, r.Place, r)
			if err != nil {
				return []web.Finding{{Check: "doctor", Message: err.Error()}}
			}
			var out []web.Finding
			for _, p := range problems {
				if !p.Info {
					out = append(out, web.Finding{Check: p.Check, Message: p.Message, Fix: p.Fix})
				}
			}
			return out
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "mem serve: %s\n(Ctrl-C stops it)\n", srv.URL())
	if c.Open {
		if err := openBrowser(srv.URL()); err != nil {
			fmt.Fprintf(e.stderr, "mem: could not open a browser (%v); open the URL above\n", err)
		}
	}
	return srv.Serve(e.ctx, l)
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
