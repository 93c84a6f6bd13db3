package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
)

// fixtureSchema regenerates the fixture JSON Schema from the loader's field
// tables and writes it to docs/fixture.schema.json (atomically), or with
// -o - to stdout. It says whether the file changed: a change belongs in
// the same commit as the loader change that caused it.
func fixtureSchema(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", fixture.SchemaFile, "where to write the schema (- for stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New("usage: ladder schema [-o FILE|-]")
	}
	data, err := fixture.JSONSchema()
	if err != nil {
		return err
	}
	if *out == "-" {
		_, err := stdout.Write(data)
		return err
	}
	old, err := os.ReadFile(*out)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("schema: %w", err)
	}
	if bytes.Equal(old, data) {
		fmt.Fprintf(stdout, "%s: unchanged\n", *out)
		return nil
	}
	if err := regen.WriteAtomic(*out, data); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	fmt.Fprintf(stdout, "%s: written (%d bytes)\n", *out, len(data))
	return nil
}
