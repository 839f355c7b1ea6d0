// Package web is `mem serve`: a local web page on one repository's memory
// store, to look at what the agents remember and to decide. Every decision
// made on it is the same library call, and so the same git commit, as the
// command that makes it in a terminal (mem review, mem undo, mem skills).
//
// Pages are rendered on the server with html/template; the only script is
// a few lines that apply a filter as soon as it is chosen (static/app.js),
// and every page works without it. An undo asks first on a page of its own,
// not in a script's dialog. Nothing needs a build step.
//
// # Security
//
// The page can rewrite a repository's memory, so it is closed to everyone
// but the person who started it:
//
//   - Loopback only. [Listen] refuses any address that is not a loopback
//     IP or "localhost".
//   - A session token. The URL mem serve prints carries a random token; the
//     first request with it gets a cookie (HttpOnly, SameSite=Strict, named
//     after the port) and is sent on to the same URL without the token.
//     Every other request without the cookie is refused.
//   - The Host header must name the loopback address and port the server
//     listens on, so a page on another site whose name resolves to
//     127.0.0.1 (DNS rebinding) reaches nothing.
//   - Every state change is a POST carrying the form's CSRF token, from a
//     page of this origin (Origin, when the browser sends it, must match).
//   - Nothing outside the store is read or served: every path parameter is
//     a slug, an id or a commit that is looked up among what the library
//     lists, never joined to a directory.
//   - Content is escaped by html/template; markdown is rendered by goldmark
//     without raw HTML and with dangerous links dropped; a Content Security
//     Policy allows scripts from this origin's static files only.
//   - Writes go through the library, under the store's lock, and each form
//     carries a fingerprint of the files it was drawn from: the write checks
//     it under the lock (gitstore.WithPrecondition) and refuses a form drawn
//     from files that have changed since.
//
// # Files
//
// Marks of the prompt hook's decisions go to <git-common-dir>/mem/marks.jsonl
// (mem.Repo.Mark), a battery that `mem eval` runs; the page writes nothing
// else outside the library's commits.
package web
