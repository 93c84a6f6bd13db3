// Package dense writes dense CSV goldens exactly and finds the first place
// where an actual file departs from its golden.
//
// # Format
//
// A dense golden is a table with one row per tick. It is UTF-8, comma
// separated, with "\n" line ends, one header row and a newline after the last
// row. The first column is always "tick". A field is quoted only when it
// contains a comma, a quote, "\r" or "\n", with embedded quotes doubled
// (RFC 4180). Cells are typed so that every writer spells a value the same
// way: Int in plain decimal, Float as Python's repr(float) spells it (see
// package canon: the goldens are also read by Python tools), Bool as True or
// False, Str as given, and Empty as an empty field, meaning the value is not
// held at that tick. A NaN can never be written.
//
//	tick,w1/pos,w1/held,w1/name
//	0,0.5,True,"Smith, J."
//	1,1e-05,False,
//
// is what
//
//	dense.Encode([]string{"tick", "w1/pos", "w1/held", "w1/name"}, [][]dense.Cell{
//		{dense.Int(0), dense.Float(0.5), dense.Bool(true), dense.Str("Smith, J.")},
//		{dense.Int(1), dense.Float(1e-5), dense.Bool(false), dense.Empty()},
//	})
//
// returns.
//
// # Comparing
//
// Because the writer is exact, a golden and a correct actual file are
// byte-identical, and Compare's common case is a single bytes.Equal. When
// they differ, Compare does not parse the files: it finds the first
// differing byte by comparing large chunks, finds the record holding it by
// scanning the common prefix from quote to quote (a quoted field may hold a
// newline), and parses only the header and that one record of each side. It
// then reports the first field whose value differs as a Divergence, whose
// String CI parses:
//
//	first divergence at tick 4, column "w1/theft-1/verbatim": golden 0.557396, actual 999.0
//
// Line numbers count records from 1, so a quoted newline does not advance
// them; Divergence.Index counts columns from 0, while messages and
// FormatError.Column count them from 1 as a spreadsheet does. A golden that
// is malformed where Compare reads it gives a *FormatError rather than a
// divergence that would mislead; a malformed actual is just a divergence.
//
// # Files of any length
//
// A run's dense file can be longer than memory should hold, so each way of
// reading one has a form that never holds a whole file, and answers
// exactly as the in-memory form does (property specs and fuzz targets hold
// each to it):
//
//   - Stream writes a run's file as the rows arrive, when the header (the
//     sorted union of the run's columns) is known only at the end: the
//     caller numbers the columns as they appear and hands over each row
//     as cells by number, which are spilled to a temporary file and
//     assembled in one pass by Finish. Given a golden, it compares each row as it is
//     produced and reports what Compare, and for a changed column set
//     Diff, would report for the two whole files (Comparison); and it can
//     write each row as the golden lays it out as it goes (WriteThrough),
//     which is the whole file, with nothing to assemble, when the run
//     ends with the golden's header.
//   - CompareFiles and CompareReaders are Compare for files: chunks of
//     bytes.Equal first, then, only when they differ, one record at a time.
//   - DiffReaders is Diff holding a row of each side, the first cells and
//     counts per column; Count is Parse's checks without the table.
package dense
