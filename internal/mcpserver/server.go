// Package mcpserver serves a memory store to coding agents over the Model
// Context Protocol: `mem mcp`, a stdio server for Claude Code, OpenCode, Kimi
// Code and Codex, built on github.com/modelcontextprotocol/go-sdk.
//
// # Tools
//
//	memory_store   content*, name, description, class, importance, tags
//	context_query  query*, limit (default 3, at most 10)
//	memory_update  slug*, content, name, description, class, importance, tags
//	memory_forget  slug*
//	memory_show    slug*
//	memory_list    (none)
//
// Each tool is one call into package mem, with the same semantics as the
// matching CLI command: a store, an update (mem edit's counterpart) or a
// forget is one git commit (Mem-Action: store, update, forget), and
// context_query is the prompt hook's search, threshold included, so it
// returns nothing when no memory is relevant enough. Every result carries structured content (the tool's output
// schema) and a short text for clients that show only text.
//
// # Errors
//
// Anything that goes wrong in a call — bad arguments, a duplicate slug, a
// missing memory, a failed commit — is a tool error (IsError) whose text is
// one sentence the model can act on; protocol errors are kept for malformed
// requests and unknown tools. Arguments are checked against the tool's input
// schema before the SDK's own validation, so that the message names the
// argument and what it must be; a null argument counts as absent. A panic in
// a call becomes a tool error, and calls run one at a time. A line that is
// not a JSON-RPC message, a request whose id is null, and a line over 16 MB
// are answered with a JSON-RPC error (parse error or invalid request, id
// null where the request's cannot be given) and the session goes on. When
// stdin closes the server answers what it can still answer, then exits.
package mcpserver

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-dev/mem"
)

// instructions are sent to clients at initialization.
const instructions = `mem keeps this project's memories: markdown files in git that earlier sessions wrote. ` +
	`Call context_query with the task at hand before you work on something a past session may have met; ` +
	`it returns nothing when no memory is relevant enough, and that is a normal answer. ` +
	`Call memory_store when you learn something the next session would need (a gotcha, a decision, a procedure, a rule), one idea per memory. ` +
	`Every store and forget is one git commit.`

// server holds what the tool handlers share.
type server struct {
	repo  *mem.Repo
	mu    sync.Mutex             // one call at a time: go-git is not safe for concurrent use
	tools map[string]toolSchemas // by tool name, built on the tool's first call
}

// schemas are one tool's input and output schemas, inferred from its Go
// types and tightened, and resolved for validation.
type schemas struct {
	in, out                 *jsonschema.Schema
	resolvedIn, resolvedOut *jsonschema.Resolved
}

// toolSchemas builds a tool's schemas once.
type toolSchemas func() (schemas, error)

// The tools' schemas as tools/list sends them, written by `go test -run
// ToolSchemas -update` from what the Go types infer (TestToolSchemas fails
// when they differ): every `mem mcp` lists its tools without inferring
// and encoding their schemas, which was most of what answering tools/list
// cost it. A tool missing here has its schemas built when registered.
//
//go:embed schemas.json
var schemasJSON []byte

// New returns an MCP server whose tools read and write r.
func New(r *mem.Repo, version string) *mcp.Server {
	if version == "" {
		version = "devel"
	}
	srv, _ := newServer(r, version)
	return srv
}

func newServer(r *mem.Repo, version string) (*mcp.Server, *server) {
	s := &server{repo: r, tools: map[string]toolSchemas{}}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mem", Title: "mem: git-native memory", Version: version},
		&mcp.ServerOptions{
			Instructions: instructions,
			// No logging capability: the server has nothing to log to the client.
			Capabilities: &mcp.ServerCapabilities{},
		})
	var listed map[string]struct{ Input, Output json.RawMessage }
	if err := json.Unmarshal(schemasJSON, &listed); err != nil {
		panic(fmt.Sprintf("mcpserver: schemas.json: %v", err)) // a programming error, caught by any test
	}
	s.register(srv, func(name string) (in, out json.RawMessage) { return listed[name].Input, listed[name].Output })
	srv.AddReceivingMiddleware(s.guard)
	return srv, s
}

// Serve runs the server on one stream pair (stdin and stdout for `mem mcp`)
// until the client closes its end or ctx is cancelled; both are a normal end
// and return nil. in is closed at the end when it is an io.Closer; out is
// never closed.
func Serve(ctx context.Context, r *mem.Repo, version string, in io.Reader, out io.Writer) error {
	sw := &syncWriter{w: out}
	d := &drain{ctx: ctx, in: newFrames(in, sw), out: sw}
	var rc io.ReadCloser = io.NopCloser(d)
	if c, ok := in.(io.Closer); ok {
		rc = readCloser{d, c}
	}
	// frames bounds and vets each line, and answers a bad one itself: the
	// SDK's own cap and decoder would end the session on it.
	err := New(r, version).Run(ctx, &mcp.IOTransport{Reader: rc, Writer: nopCloser{d}, MaxLineLength: -1})
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// addTool registers one typed tool. h returns the structured output and the
// short text shown beside it; an error becomes a tool error whose text is
// the error's message. adjust tightens the schema inferred from In (enums,
// ranges, defaults) before the SDK and checkArgs use it; listed gives the
// schemas as schemas.json has them.
//
// It does what the SDK's typed mcp.AddTool does (validate the arguments and
// fill in their defaults, decode them, call, encode and validate the
// output as structured content), but infers and resolves the schemas on
// the tool's first call instead of at registration, and lists them from
// schemas.json: that was most of what building the server and answering
// tools/list cost, and every `mem mcp` paid it before a client could see
// its tools, though most sessions call a tool rarely or never.
// testdata/wire.golden holds the answers unchanged.
func addTool[In, Out any](s *server, srv *mcp.Server, listed func(string) (json.RawMessage, json.RawMessage), t *mcp.Tool,
	adjust func(*jsonschema.Schema), h func(context.Context, In) (Out, string, error)) {
	build := sync.OnceValues(func() (schemas, error) {
		in, err := jsonschema.For[In](nil)
		if err != nil {
			return schemas{}, fmt.Errorf("input schema of %s: %w", t.Name, err)
		}
		if adjust != nil {
			adjust(in)
		}
		out, err := jsonschema.For[Out](nil)
		if err != nil {
			return schemas{}, fmt.Errorf("output schema of %s: %w", t.Name, err)
		}
		sc := schemas{in: in, out: out}
		if sc.resolvedIn, err = in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
			return schemas{}, fmt.Errorf("input schema of %s: %w", t.Name, err)
		}
		if sc.resolvedOut, err = out.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
			return schemas{}, fmt.Errorf("output schema of %s: %w", t.Name, err)
		}
		return sc, nil
	})
	s.tools[t.Name] = build
	if in, out := listed(t.Name); in != nil && out != nil {
		t.InputSchema, t.OutputSchema = in, out
	} else {
		sc, err := build()
		if err != nil {
			panic("mcpserver: " + err.Error()) // a programming error, caught by any test
		}
		t.InputSchema, t.OutputSchema = sc.in, sc.out
	}
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sc, err := build()
		if err != nil {
			return nil, err
		}
		args, err := applySchema(req.Params.Arguments, sc.resolvedIn, false)
		if err != nil {
			return errorResult(fmt.Errorf("validating \"arguments\": %v", err)), nil
		}
		var in In
		if err := json.Unmarshal(args, &in); err != nil {
			return errorResult(err), nil
		}
		s.mu.Lock()
		out, text, err := h(ctx, in)
		s.mu.Unlock()
		if err != nil {
			return errorResult(err), nil
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		if data, err = applySchema(data, sc.resolvedOut, true); err != nil {
			return nil, fmt.Errorf("validating tool output: %w", err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(data)}, nil
	})
}

// applySchema validates data against a resolved schema and fills in its
// defaults, as the SDK does for a typed tool: arguments are read as an
// object (absent ones as {}), and an object is written back with its keys
// sorted, which is the form clients have always received.
func applySchema(data json.RawMessage, resolved *jsonschema.Resolved, forOutput bool) (json.RawMessage, error) {
	var v any
	if !forOutput {
		m := map[string]any{}
		if len(data) > 0 {
			if err := json.Unmarshal(data, &m); err != nil {
				return nil, fmt.Errorf("unmarshaling arguments: %w", err)
			}
		}
		v = m
	} else if len(data) > 0 {
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("unmarshaling output: %w", err)
		}
	}
	_, isObject := v.(map[string]any)
	if isObject {
		if err := resolved.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("applying schema defaults:\n%w", err)
		}
	}
	if err := resolved.Validate(&v); err != nil {
		return nil, err
	}
	if !isObject {
		return data, nil
	}
	return json.Marshal(v)
}

// errorResult is a tool error whose text is err's message, as the SDK
// makes one.
func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// guard is the receiving middleware: it checks tool arguments before the
// SDK does (for clearer messages) and turns a panic into an error.
func (s *server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		call, isCall := req.(*mcp.CallToolRequest)
		defer func() {
			if p := recover(); p != nil {
				if isCall {
					res, err = toolError(fmt.Sprintf("internal error in mem (please report it): %v", p)), nil
				} else {
					res, err = nil, fmt.Errorf("internal error in mem: %v", p)
				}
			}
		}()
		if isCall && call.Params != nil {
			if build, ok := s.tools[call.Params.Name]; ok {
				sc, err := build()
				if err != nil {
					return nil, err
				}
				args, problem := checkArgs(call.Params.Name, sc.in, call.Params.Arguments)
				if problem != "" {
					return toolError(problem), nil
				}
				call.Params.Arguments = args
			}
		}
		return next(ctx, method, req)
	}
}

// toolError is a failed call's result: one sentence, IsError set.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// rawDefault is a schema default value.
func rawDefault(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
