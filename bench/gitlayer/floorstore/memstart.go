//go:build memstart

// Built with -tags memstart, the floor links and initialises every package
// mem's command does, so its start costs what mem's does: what is left
// between it and mem store is mem's own work. The list is cmd/mem's
// imports; TestMemstartLinksWhatMemLinks says when the two part.
package main

import (
	_ "os/signal"
	_ "text/tabwriter"

	_ "github.com/alecthomas/kong"
	_ "github.com/mem-dev/mem"
	_ "github.com/mem-dev/mem/curator"
	_ "github.com/mem-dev/mem/gitstore"
	_ "github.com/mem-dev/mem/hooks"
	_ "github.com/mem-dev/mem/internal/catalog"
	_ "github.com/mem-dev/mem/internal/eval"
	_ "github.com/mem-dev/mem/internal/install"
	_ "github.com/mem-dev/mem/internal/learn"
	_ "github.com/mem-dev/mem/internal/locate"
	_ "github.com/mem-dev/mem/internal/logfile"
	_ "github.com/mem-dev/mem/internal/mcpserver"
	_ "github.com/mem-dev/mem/internal/modelcmd"
	_ "github.com/mem-dev/mem/internal/profile"
	_ "github.com/mem-dev/mem/internal/secrets"
	_ "github.com/mem-dev/mem/internal/sessions"
	_ "github.com/mem-dev/mem/internal/skills"
	_ "github.com/mem-dev/mem/internal/sweep"
	_ "github.com/mem-dev/mem/internal/text"
	_ "github.com/mem-dev/mem/internal/version"
	_ "github.com/mem-dev/mem/internal/web"
	_ "github.com/mem-dev/mem/mdparse"
	_ "github.com/mem-dev/mem/search"
)
