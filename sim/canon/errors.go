package canon

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors wrapped by MarshalError. Test for them with errors.Is.
var (
	ErrNaN             = errors.New("NaN is not allowed")
	ErrInf             = errors.New("infinity is not allowed")
	ErrInvalidUTF8     = errors.New("invalid UTF-8")
	ErrDuplicateKey    = errors.New("duplicate key")
	ErrUnsupportedType = errors.New("unsupported type")
	ErrTooDeep         = errors.New("nesting deeper than " + strconv.Itoa(maxDepth) + " levels")
)

// MarshalError reports a value that has no canonical JSON encoding.
type MarshalError struct {
	Path string // JSON path of the offending value, such as $.records[3].value
	Err  error  // what is wrong with it
}

// Error returns the message "canon: PATH: REASON".
func (e *MarshalError) Error() string {
	return "canon: " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *MarshalError) Unwrap() error { return e.Err }

// Step is one step of a JSON path: an object key, or an array index.
// Build it with KeyStep or IndexStep.
type Step struct{ s segment }

// KeyStep is the step into an object's member named key.
func KeyStep(key string) Step { return Step{segment{key: key, index: -1}} }

// IndexStep is the step into an array's element i (counting from 0).
func IndexStep(i int) Step { return Step{segment{index: i}} }

// ErrorAt returns the MarshalError for err found at path, outermost step
// first. Encoders that write canonical JSON by hand return it, so their
// errors read exactly like Marshal's ("canon: $.roll.value: NaN is not
// allowed").
func ErrorAt(err error, path ...Step) *MarshalError {
	p := failure(err)
	for i := len(path) - 1; i >= 0; i-- {
		p.at(path[i].s)
	}
	return p.export()
}

// segment is one step of a JSON path: an object key, or an array index when
// key is unused (index >= 0).
type segment struct {
	key   string
	index int
}

// pathError carries an error up the encoder's recursion; each level appends
// its own segment on the way out, so building a path costs nothing until a
// value actually fails.
type pathError struct {
	segments []segment // innermost first
	err      error
}

// failure starts a pathError at the value that failed.
func failure(err error) *pathError { return &pathError{err: err} }

// at records that the failing value lies under s.
func (p *pathError) at(s segment) *pathError {
	if p.err != ErrTooDeep { // its path would repeat one step a thousand times
		p.segments = append(p.segments, s)
	}
	return p
}

func (p *pathError) inKey(key string) *pathError { return p.at(segment{key: key, index: -1}) }

func (p *pathError) inIndex(i int) *pathError { return p.at(segment{index: i}) }

// export renders the path outermost first, writing identifier-like keys as
// .key and any other key as a quoted ["key"].
func (p *pathError) export() *MarshalError {
	var b strings.Builder
	b.WriteByte('$')
	for i := len(p.segments) - 1; i >= 0; i-- {
		s := p.segments[i]
		switch {
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case isIdentifier(s.key):
			b.WriteByte('.')
			b.WriteString(s.key)
		default:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(s.key))
			b.WriteByte(']')
		}
	}
	return &MarshalError{Path: b.String(), Err: p.err}
}

// isIdentifier reports whether s can follow a dot in a path: a letter or
// underscore, then letters, digits and underscores.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
