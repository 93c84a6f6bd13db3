package seal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim/canon"
)

// File is the manifest's name in its set's directory.
const File = artifact.ManifestFile

// Format names the manifest's layout and hashing rules; a manifest of
// another format is refused, never guessed at.
const Format = "chronicle.golden-seal.v1"

// Manifest is the seal of one golden set.
type Manifest struct {
	// Set is the set's name: the rung, or rung/case ("T2.3/swapped"), so a
	// manifest copied into another set's directory does not verify there.
	Set string
	// Files maps each sealed file's name to its SHA-256, lowercase hex.
	Files map[string]string
	// Hash is manifest_sha256: the SHA-256 of the manifest encoded with
	// this field blank.
	Hash string
}

// payload is the canonical JSON of m with manifest_sha256 set to hash.
func (m Manifest) payload(hash string) ([]byte, error) {
	files := m.Files
	if files == nil {
		files = map[string]string{}
	}
	return canon.Marshal(canon.Object{
		{Key: "files", Value: files},
		{Key: "format", Value: Format},
		{Key: "manifest_sha256", Value: hash},
		{Key: "set", Value: m.Set},
	})
}

// selfHash is the manifest's own hash: over its payload with the field
// blank.
func (m Manifest) selfHash() (string, error) {
	p, err := m.payload("")
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(p)
	return hex.EncodeToString(sum[:]), nil
}

// Encode seals m (sets Hash) and returns the manifest file's bytes: the
// canonical payload and a newline.
func (m *Manifest) Encode() ([]byte, error) {
	h, err := m.selfHash()
	if err != nil {
		return nil, fmt.Errorf("seal %s: %w", m.Set, err)
	}
	m.Hash = h
	p, err := m.payload(h)
	if err != nil {
		return nil, fmt.Errorf("seal %s: %w", m.Set, err)
	}
	return append(p, '\n'), nil
}

// Make digests the files names in dir and returns the sealed manifest of
// set.
func Make(dir, set string, names []string) (Manifest, error) {
	return makeDigested(dir, set, names, nil)
}

// makeDigested is Make taking the digests in digested as given: only the
// names it lacks are read and digested.
func makeDigested(dir, set string, names []string, digested map[string]string) (Manifest, error) {
	m := Manifest{Set: set, Files: map[string]string{}}
	if len(names) == 0 {
		return m, fmt.Errorf("seal %s: no files to seal", set)
	}
	for _, name := range names {
		if err := checkName(name); err != nil {
			return m, fmt.Errorf("seal %s: %w", set, err)
		}
		d, ok := digested[name]
		if !ok {
			var err error
			if d, err = Digest(filepath.Join(dir, name)); err != nil {
				return m, fmt.Errorf("seal %s: %w", set, err)
			}
		}
		m.Files[name] = d
	}
	if _, err := m.Encode(); err != nil {
		return m, err
	}
	return m, nil
}

// Write seals the files names in dir as set and writes dir/manifest.json
// whole or not at all. Run it after the files are in place.
func Write(dir, set string, names []string) error {
	return WriteDigested(dir, set, names, nil)
}

// WriteDigested is Write given the digests of some of names, by name,
// taken as their bytes were written (Digester): those files are not read
// back, which for a run's trace is gigabytes at city scale. The caller
// vouches that each digest is of the file now in place.
func WriteDigested(dir, set string, names []string, digested map[string]string) error {
	m, err := makeDigested(dir, set, names, digested)
	if err != nil {
		return err
	}
	b, err := m.Encode()
	if err != nil {
		return err
	}
	return artifact.Write(filepath.Join(dir, File), b)
}

// Digester passes what is written to it on to its writer and digests the
// bytes the writer took, as Digest digests a file holding them.
type Digester struct {
	w io.Writer
	h hash.Hash
}

// NewDigester digests what is written to w through it.
func NewDigester(w io.Writer) *Digester { return &Digester{w: w, h: sha256.New()} }

func (d *Digester) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	d.h.Write(p[:n])
	return n, err
}

// Sum is the SHA-256 of the bytes written so far, lowercase hex.
func (d *Digester) Sum() string { return hex.EncodeToString(d.h.Sum(nil)) }

// Digest is the SHA-256 of a file, lowercase hex, read in chunks.
func Digest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var hexDigest = regexp.MustCompile(`^[0-9a-f]{64}$`)

// checkName accepts the base name of a visible file other than the
// manifest: what a set may seal.
func checkName(name string) error {
	switch {
	case name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || name == "." || name == "..":
		return fmt.Errorf("%q is not a file name", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%q is hidden: hidden files are never goldens", name)
	case name == File:
		return fmt.Errorf("a manifest does not seal itself")
	}
	return nil
}

// Parse reads a manifest file's bytes and verifies the manifest itself:
// its layout, its format, its canonical spelling and its own hash. It
// does not look at the files it seals (Check does).
func Parse(data []byte) (Manifest, error) {
	var raw struct {
		Files  map[string]string `json:"files"`
		Format *string           `json:"format"`
		Hash   *string           `json:"manifest_sha256"`
		Set    *string           `json:"set"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Manifest{}, fmt.Errorf("not a manifest: %w", err)
	}
	if dec.More() {
		return Manifest{}, errors.New("not a manifest: more than one JSON value")
	}
	switch {
	case raw.Format == nil || raw.Hash == nil || raw.Set == nil || raw.Files == nil:
		return Manifest{}, errors.New("not a manifest: it needs files, format, manifest_sha256 and set")
	case *raw.Format != Format:
		return Manifest{}, fmt.Errorf("format %q is not %q", *raw.Format, Format)
	case !hexDigest.MatchString(*raw.Hash):
		return Manifest{}, fmt.Errorf("manifest_sha256 %q is not a SHA-256 in lowercase hex", *raw.Hash)
	}
	m := Manifest{Set: *raw.Set, Files: raw.Files, Hash: *raw.Hash}
	for _, name := range slices.Sorted(maps.Keys(m.Files)) {
		if err := checkName(name); err != nil {
			return m, fmt.Errorf("files: %w", err)
		}
		if !hexDigest.MatchString(m.Files[name]) {
			return m, fmt.Errorf("files: %s: %q is not a SHA-256 in lowercase hex", name, m.Files[name])
		}
	}
	own, err := m.selfHash()
	if err != nil {
		return m, err
	}
	if own != m.Hash {
		return m, &HashError{Recorded: m.Hash, Computed: own}
	}
	canonical, err := m.payload(m.Hash)
	if err != nil {
		return m, err
	}
	if !bytes.Equal(data, append(canonical, '\n')) {
		return m, errors.New("not in canonical form (sorted keys, no spaces, one trailing newline): it was rewritten by hand")
	}
	return m, nil
}

// HashError is a manifest whose recorded manifest_sha256 is not the hash
// of its content: the manifest itself was edited.
type HashError struct {
	Recorded, Computed string
}

func (e *HashError) Error() string {
	return fmt.Sprintf("its manifest_sha256 is %s but its content hashes to %s: the manifest was edited", Short(e.Recorded), Short(e.Computed))
}

// Short abbreviates a hex digest for messages.
func Short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// Breach is one way a set differs from its seal.
type Breach struct {
	// File is the file concerned: a golden, or the manifest itself.
	File string
	Kind BreachKind
	// Sealed and Now are the digests of an edited file.
	Sealed, Now string
	// Err says more where there is more to say (an unreadable file, a
	// manifest that does not verify).
	Err error
}

// BreachKind classifies a Breach.
type BreachKind int

const (
	// Edited is a sealed file whose bytes are no longer those sealed.
	Edited BreachKind = iota
	// Missing is a sealed file that is not there.
	Missing
	// Unsealed is a file in the set that the manifest does not name.
	Unsealed
	// Unreadable is a sealed file that cannot be read, or a set member
	// that is not a regular file.
	Unreadable
	// NoManifest is a set without a manifest.json.
	NoManifest
	// BadManifest is a manifest that does not verify by itself (edited,
	// not canonical, of another format, not a manifest) or that seals
	// another set or nothing.
	BadManifest
)

func (b Breach) String() string {
	switch b.Kind {
	case Edited:
		return fmt.Sprintf("%s does not match its seal (sealed sha256 %s, now %s)", b.File, Short(b.Sealed), Short(b.Now))
	case Missing:
		return fmt.Sprintf("%s is sealed but missing", b.File)
	case Unsealed:
		return fmt.Sprintf("%s is in the set but not in its seal", b.File)
	case Unreadable:
		return fmt.Sprintf("%s cannot be read: %v", b.File, b.Err)
	case NoManifest:
		return fmt.Sprintf("%s is missing: the set is not sealed", b.File)
	}
	return fmt.Sprintf("%s does not verify: %v", b.File, b.Err)
}

// Report is the verification of one set.
type Report struct {
	// Dir is the set's directory as given to Check.
	Dir string
	// Examined counts the sealed files whose bytes were hashed and
	// compared with their seal.
	Examined int
	// Breaches lists every difference in file name order. A manifest that
	// does not verify is the only breach: the list of files it holds
	// cannot be trusted, so nothing else is checked.
	Breaches []Breach
	// Verified holds, by name, each sealed file whose bytes were hashed
	// and found as sealed, with the file as it stood before the hashing
	// began. A run linked
	// to one of them takes its digest from here rather than hashing the
	// same bytes again (ladder.Options.Seals).
	Verified map[string]Verified
}

// Verified is a sealed file as Check found it: its digest, and the file
// (its identity, size and modification time) whose bytes had it.
type Verified struct {
	Digest string
	Info   fs.FileInfo
}

// Unchanged reports whether fi is the file v verified, not changed since
// as far as the file system tells without reading it: the same file
// (os.SameFile), of the same size, modified at the same instant. A file
// replaced by renaming is another file; one rewritten in place has a new
// modification time, unless the rewrite falls within the same tick of the
// file system's clock as the check's reading (git's "racily clean" case),
// which needs a writer racing the check.
func (v Verified) Unchanged(fi fs.FileInfo) bool {
	return v.Info != nil && fi != nil && os.SameFile(v.Info, fi) &&
		fi.Size() == v.Info.Size() && fi.ModTime().Equal(v.Info.ModTime())
}

// OK reports whether the set matches its seal.
func (r Report) OK() bool { return len(r.Breaches) == 0 }

// Check verifies the golden set in dir against its manifest, which must
// seal set. A manifest that does not verify by itself ends the check (the
// file list it holds cannot be trusted); otherwise every sealed file is
// hashed and compared, and every visible regular file in dir must be
// sealed. Subdirectories are other sets (cases) and hidden entries are
// never goldens; both are left alone. A manifest that seals no file
// examines nothing, which is a breach.
func Check(dir, set string) Report {
	r := Report{Dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, File))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Breaches = append(r.Breaches, Breach{File: File, Kind: NoManifest})
		return r
	case err != nil:
		r.Breaches = append(r.Breaches, Breach{File: File, Kind: Unreadable, Err: err})
		return r
	}
	m, err := Parse(data)
	switch {
	case err != nil:
		r.Breaches = append(r.Breaches, Breach{File: File, Kind: BadManifest, Err: err})
		return r
	case m.Set != set:
		r.Breaches = append(r.Breaches, Breach{File: File, Kind: BadManifest,
			Err: fmt.Errorf("it seals the set %q, not %q (copied from another set's directory?)", m.Set, set)})
		return r
	case len(m.Files) == 0:
		r.Breaches = append(r.Breaches, Breach{File: File, Kind: BadManifest, Err: errors.New("it seals no file, so it proves nothing")})
		return r
	}
	for _, name := range slices.Sorted(maps.Keys(m.Files)) {
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			r.Breaches = append(r.Breaches, Breach{File: name, Kind: Missing})
			continue
		case err != nil:
			r.Breaches = append(r.Breaches, Breach{File: name, Kind: Unreadable, Err: err})
			continue
		case !fi.Mode().IsRegular():
			r.Breaches = append(r.Breaches, Breach{File: name, Kind: Unreadable, Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())})
			continue
		}
		d, err := Digest(path)
		if err != nil {
			r.Breaches = append(r.Breaches, Breach{File: name, Kind: Unreadable, Err: err})
			continue
		}
		r.Examined++
		if d != m.Files[name] {
			r.Breaches = append(r.Breaches, Breach{File: name, Kind: Edited, Sealed: m.Files[name], Now: d})
			continue
		}
		if r.Verified == nil {
			r.Verified = map[string]Verified{}
		}
		// Stat before the hashing: a write during it leaves a later time.
		r.Verified[name] = Verified{Digest: d, Info: fi}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		r.Breaches = append(r.Breaches, Breach{File: ".", Kind: Unreadable, Err: err})
		return r
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || name == File {
			continue
		}
		if _, sealed := m.Files[name]; !sealed {
			r.Breaches = append(r.Breaches, Breach{File: name, Kind: Unsealed})
		}
	}
	slices.SortStableFunc(r.Breaches, func(a, b Breach) int { return strings.Compare(a.File, b.File) })
	return r
}
