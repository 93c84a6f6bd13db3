package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// Commit is a commit that touched a golden.
type Commit struct {
	Hash, Date, Subject string // Date is the committer's, as git log's %cs spells it
	Parents             []string
}

// Short is the commit's hash cut to twelve digits, enough to name it.
func (c Commit) Short() string { return c.Hash[:min(12, len(c.Hash))] }

func (c Commit) String() string { return fmt.Sprintf("%s (%s, %q)", c.Short(), c.Date, c.Subject) }

// git runs git in root and returns its standard output; a failure is an
// error quoting what git said.
func git(root string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if said := strings.TrimSpace(stderr.String()); said != "" {
			err = fmt.Errorf("%w: %s", err, said)
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// touching lists the commits on rev's first-parent line that changed
// path, newest first (`git log --first-parent`): each listed commit's
// version of the file is the one the next listed commit changed.
func touching(root, rev, path string) ([]Commit, error) {
	out, err := git(root, "log", "--first-parent", "--format=%H%x00%P%x00%cs%x00%s", rev, "--", path)
	if err != nil {
		return nil, err
	}
	var cs []Commit
	for line := range strings.Lines(out) {
		f := strings.SplitN(strings.TrimSuffix(line, "\n"), "\x00", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("git log: unexpected line %q", line)
		}
		cs = append(cs, Commit{Hash: f[0], Parents: strings.Fields(f[1]), Date: f[2], Subject: f[3]})
	}
	return cs, nil
}

// blobs reads files as committed through one `git cat-file --batch`, a
// file at a time, never whole.
type blobs struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func openBlobs(root string) (*blobs, error) {
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &blobs{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// read hands fn the file path as of rev (any revision git names: a hash,
// hash^), to read as much of as it needs; false when rev has no such file.
func (b *blobs) read(rev, path string, fn func(io.Reader) error) (bool, error) {
	if _, err := fmt.Fprintf(b.in, "%s:%s\n", rev, path); err != nil {
		return false, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := b.out.ReadString('\n')
	if err != nil {
		return false, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(header)
	switch {
	case len(f) == 2 && f[1] == "missing":
		return false, nil
	case len(f) != 3 || f[1] != "blob":
		return false, fmt.Errorf("git cat-file %s:%s: %s", rev, path, strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return false, fmt.Errorf("git cat-file %s:%s: %w", rev, path, err)
	}
	blob := io.LimitReader(b.out, size)
	err = fn(blob)
	// What fn left unread, and the newline after the blob, come before the
	// next answer.
	if _, skip := io.Copy(io.Discard, blob); skip != nil {
		return true, errors.Join(err, skip)
	}
	if _, skip := b.out.ReadByte(); skip != nil {
		return true, errors.Join(err, skip)
	}
	return true, err
}

func (b *blobs) Close() error {
	return errors.Join(b.in.Close(), b.cmd.Wait())
}
