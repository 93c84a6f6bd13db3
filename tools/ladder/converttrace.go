package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/sim/trace"
)

// convertTrace rewrites a trace file in another schema version: a file of
// version 1 or 2 (a trace written before version 3, kept by someone
// outside the repository) in version 3, or with -expand a version-3 file
// as version 2 spelt it, for a reader or a tool that wants every fact
// spelt out. Neither loses anything: converting the expansion gives the
// file back byte for byte (decision 0040). With -o the output is written
// to a temporary file beside it and renamed into place only when whole.
func convertTrace(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("convert-trace", flag.ContinueOnError)
	fl.SetOutput(stderr)
	expand := fl.Bool("expand", false, "write a version-3 trace as version 2 (default: a version 1 or 2 trace as version 3)")
	out := fl.String("o", "", "write to this file instead of standard output")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: ladder convert-trace [-expand] [-o FILE] <trace.jsonl>")
	}
	in, err := os.Open(fl.Arg(0))
	if err != nil {
		return err
	}
	defer in.Close()
	convert := trace.ConvertV2
	if *expand {
		convert = trace.ExpandV3
	}
	if *out == "" {
		if err := convert(in, stdout); err != nil {
			return fmt.Errorf("%s: %w", fl.Arg(0), err)
		}
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".convert-trace-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone once renamed; removed if anything failed
	if err := convert(in, tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", fl.Arg(0), err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), *out)
}
